package dev.agentmiddleware.sample.chat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.agentmiddleware.sample.workspace.Workspace;

import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The scripted model, used unless {@code sample.chat.model} is {@code real} (set by the
 * {@code openai} profile, where Spring AI's OpenAI starter provides the model), the
 * stand-in approver that denies its deletion, and the file it reads.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "sample.chat.model", havingValue = "scripted", matchIfMissing = true)
class ChatConfiguration {

	@Bean
	ScriptedChatModel scriptedChatModel() {
		return new ScriptedChatModel();
	}

	@Bean
	ScriptedChatApprover scriptedChatApprover() {
		return new ScriptedChatApprover();
	}

	@Bean
	ApplicationRunner scriptedNotes(Workspace workspace) {
		return (arguments) -> {
			Path notes = workspace.resolve(ScriptedChatModel.NOTES);
			if (!Files.exists(notes)) {
				writeNotes(notes);
			}
		};
	}

	private static void writeNotes(Path notes) throws IOException {
		Files.writeString(notes, "Trip notes: pack an umbrella if it rains in Lisbon.\n", StandardCharsets.UTF_8);
	}

}
