package dev.agentmiddleware.sample;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a newcomer sees when the sample starts: no WARN line to puzzle over, and one line
 * saying which tools the middleware registered, where their chains are, and which
 * approval and thread stores are active.
 */
@ExtendWith(OutputCaptureExtension.class)
class SampleStartupLogTests {

	@TempDir
	Path workspace;

	@Test
	void theSampleStartsWithoutWarningsAndReportsItsTools(CapturedOutput output) {
		try (ConfigurableApplicationContext context = SpringApplication.run(SampleApplication.class, "--server.port=0",
				"--sample.workspace.root=" + this.workspace)) {
			List<String> lines = output.getAll().lines().toList();
			assertThat(lines).filteredOn((line) -> line.contains(" WARN ") || line.contains(" ERROR ")).isEmpty();
			assertThat(lines).filteredOn((line) -> line.contains("Agent tool middleware: "))
				.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
				.contains("15 tools registered (")
				.contains("get_weather")
				.contains("chains at /actuator/agentmiddleware")
				.endsWith(
						"; approval store: jdbc (H2, HikariDataSource); thread store: jdbc (H2, HikariDataSource); audit store: jdbc (H2, HikariDataSource)");
		}
	}

}
