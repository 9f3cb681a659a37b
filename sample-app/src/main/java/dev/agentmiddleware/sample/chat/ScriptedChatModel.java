package dev.agentmiddleware.sample.chat;

import java.util.List;

import reactor.core.publisher.Flux;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A stand-in for a real model, so the sample runs without an API key: it replays one
 * fixed conversation, whatever the user says. It is not an AI; it only shows what the
 * middleware does on each iteration of the tool loop.
 *
 * <p>
 * The reply depends only on how many replies the model already gave in this turn (the
 * assistant messages in the prompt), so concurrent conversations each replay the script
 * from the start:
 * <ol>
 * <li>writes a todo list ({@code write_todos});</li>
 * <li>reads {@code notes.txt} ({@code read_file});</li>
 * <li>reads it again and asks for the weather in Lisbon, in one turn: the read is
 * answered from the cache;</li>
 * <li>asks for the weather in Lisbon twice in one turn: the second call is the third
 * identical one of the run, so the loop guard refuses it without running the tool;</li>
 * <li>asks to delete {@code notes.txt} ({@code delete_file}, a dangerous tool): approval
 * asks the demo's stand-in approver ({@link ScriptedChatApprover}), which denies it, and
 * the file stays;</li>
 * <li>reads a file that does not exist: the tool fails, and the error-recovery middleware
 * adds the error and a hint to the next input;</li>
 * <li>recovers by listing the files instead ({@code list_files});</li>
 * <li>ticks its todo items off ({@code update_todo});</li>
 * <li>answers.</li>
 * </ol>
 */
public final class ScriptedChatModel implements ChatModel {

	static final String NOTES = "notes.txt";

	private static final String WEATHER = "{\"city\":\"Lisbon\"}";

	private static final String READ_NOTES = "{\"path\":\"" + NOTES + "\"}";

	private static final List<List<AssistantMessage.ToolCall>> SCRIPT = List.of(
			List.of(call("write_todos",
					"{\"todos\":[{\"id\":\"1\",\"text\":\"Read notes.txt\",\"status\":\"in_progress\"},"
							+ "{\"id\":\"2\",\"text\":\"Check the weather in Lisbon\",\"status\":\"pending\"},"
							+ "{\"id\":\"3\",\"text\":\"Summarise\",\"status\":\"pending\"}]}")),
			List.of(call("read_file", READ_NOTES)),
			List.of(call("read_file", READ_NOTES), call("get_weather", WEATHER)),
			List.of(call("get_weather", WEATHER), call("get_weather", WEATHER)),
			List.of(call("delete_file", READ_NOTES)), List.of(call("read_file", "{\"path\":\"missing-report.txt\"}")),
			List.of(call("list_files", "{}")), List.of(call("update_todo", "{\"id\":\"1\",\"status\":\"done\"}"),
					call("update_todo", "{\"id\":\"2\",\"status\":\"done\"}")));

	private static final String ANSWER = "I wrote a plan, read notes.txt (the second read came from the cache), "
			+ "checked the weather in Lisbon (a third identical weather call was stopped by the loop guard), "
			+ "was refused the deletion of notes.txt by the approver, recovered from a missing file by listing the workspace, and ticked my todos off. (This is the "
			+ "scripted model: configure a real model to get real answers.)";

	@Override
	public ChatResponse call(Prompt prompt) {
		int step = (int) prompt.getInstructions()
			.stream()
			.map(Message::getMessageType)
			.filter((type) -> type == MessageType.ASSISTANT)
			.count();
		AssistantMessage reply = (step < SCRIPT.size())
				? AssistantMessage.builder().content("").toolCalls(withIds(SCRIPT.get(step), step)).build()
				: new AssistantMessage(ANSWER);
		return new ChatResponse(List.of(new Generation(reply)));
	}

	@Override
	public Flux<ChatResponse> stream(Prompt prompt) {
		return Flux.defer(() -> Flux.just(call(prompt)));
	}

	@Override
	public ChatOptions getOptions() {
		return ToolCallingChatOptions.builder().build();
	}

	private static AssistantMessage.ToolCall call(String tool, String arguments) {
		return new AssistantMessage.ToolCall("", "function", tool, arguments);
	}

	private static List<AssistantMessage.ToolCall> withIds(List<AssistantMessage.ToolCall> calls, int step) {
		return java.util.stream.IntStream.range(0, calls.size())
			.mapToObj((i) -> new AssistantMessage.ToolCall("call-" + (step + 1) + "-" + (i + 1), "function",
					calls.get(i).name(), calls.get(i).arguments()))
			.toList();
	}

}
