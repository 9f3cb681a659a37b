package dev.agentmiddleware.it;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a newcomer sees when a brand-new MCP-starter application starts: no WARN (or
 * ERROR) line of Spring AI's or anyone else's that the application cannot act on. The
 * only WARN lines allowed are our own (logger categories under
 * {@code dev.agentmiddleware}) that name what to do: a property to set, or Spring
 * Security to add. Also the one INFO line of the startup report, naming the tools and the
 * active approval and thread stores.
 */
@ExtendWith(OutputCaptureExtension.class)
class FreshAppStartupLogIntegrationTests {

	// Spring Boot's default console pattern: date, level, pid, ---, [thread], logger
	// (abbreviated), colon, message.
	private static final Pattern LOG_LINE = Pattern
		.compile("^\\S+\\s+(TRACE|DEBUG|INFO|WARN|ERROR)\\s+\\d+\\s+---\\s+\\[.*?\\]\\s+(\\S+)\\s+:\\s(.*)$");

	// What an actionable warning of ours names: a property to set, or the dependency to
	// add.
	private static final Pattern NAMES_A_FIX = Pattern
		.compile("(agent\\.middleware\\.[a-z0-9.-]+|spring\\.[a-z0-9.-]+=|add Spring Security)");

	@Test
	void startsWithoutWarningsItCannotActOnAndReportsItsToolsAndStores(CapturedOutput output) {
		List<String> lines;
		try (ConfigurableApplicationContext context = SpringApplication.run(FreshMcpApplication.class,
				"--server.port=0")) {
			lines = output.getAll().lines().toList();
		}
		List<String> warnings = lines.stream().filter((line) -> level(line).matches("WARN|ERROR")).toList();
		assertThat(warnings).as("WARN and ERROR lines other than our own actionable ones")
			.filteredOn((line) -> !isOursAndActionable(line))
			.isEmpty();
		assertThat(lines).as("Spring AI's annotation scanner (off by the starter's default) is silent")
			.noneMatch((line) -> line.contains("BeanPostProcessorChecker") || line.contains("No tool methods found"));
		assertThat(lines).filteredOn((line) -> line.contains("Agent tool middleware: "))
			.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
			.contains(
					"7 tools registered (convert, delete_note, forecast, read_todos, update_todo, utcOffset, write_todos)")
			.endsWith("; approval store: memory; thread store: memory; audit store: memory");
	}

	private static String level(String line) {
		Matcher matcher = LOG_LINE.matcher(line);
		return matcher.matches() ? matcher.group(1) : "";
	}

	private static boolean isOursAndActionable(String line) {
		Matcher matcher = LOG_LINE.matcher(line);
		if (!matcher.matches() || !"WARN".equals(matcher.group(1))) {
			return false;
		}
		// Boot abbreviates dev.agentmiddleware.x.Y to d.a.x.Y (or keeps it when short
		// enough)
		String logger = matcher.group(2);
		boolean ours = logger.startsWith("dev.agentmiddleware.") || logger.startsWith("d.a.");
		return ours && NAMES_A_FIX.matcher(matcher.group(3)).find();
	}

}
