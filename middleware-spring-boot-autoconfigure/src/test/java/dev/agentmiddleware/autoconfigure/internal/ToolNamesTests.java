package dev.agentmiddleware.autoconfigure.internal;

import dev.agentmiddleware.spring.AgentTool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToolNamesTests {

	@Test
	void splitsCamelCaseIntoSnakeCase() {
		assertThat(ToolNames.defaultName("getWeather")).isEqualTo("get_weather");
		assertThat(ToolNames.defaultName("createPullRequestComment")).isEqualTo("create_pull_request_comment");
	}

	@Test
	void keepsAcronymsAsOneWord() {
		assertThat(ToolNames.defaultName("readURL")).isEqualTo("read_url");
		assertThat(ToolNames.defaultName("readURLFast")).isEqualTo("read_url_fast");
		assertThat(ToolNames.defaultName("URLReader")).isEqualTo("url_reader");
	}

	@Test
	void keepsSnakeCaseAndLowerCaseNames() {
		assertThat(ToolNames.defaultName("list_files")).isEqualTo("list_files");
		assertThat(ToolNames.defaultName("search")).isEqualTo("search");
		assertThat(ToolNames.defaultName("get_Weather")).isEqualTo("get_weather");
	}

	@Test
	void treatsDigitsAsPartOfTheWordBefore() {
		assertThat(ToolNames.defaultName("sha256Digest")).isEqualTo("sha256_digest");
		assertThat(ToolNames.defaultName("toUtf8")).isEqualTo("to_utf8");
	}

	@Test
	void prefersTheNameTheAnnotationGives() throws Exception {
		assertThat(ToolNames.of(Tools.class.getDeclaredMethod("getWeather"))).isEqualTo("get_weather");
		assertThat(ToolNames.of(Tools.class.getDeclaredMethod("readURL"))).isEqualTo("fetch");
	}

	static class Tools {

		@AgentTool
		void getWeather() {
		}

		@AgentTool(name = "fetch")
		void readURL() {
		}

	}

}
