package dev.agentmiddleware.readme;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code ```java} block of every README compiles, with the imports it shows,
 * against this module's test class path (core, auto-configuration, Spring AI, Spring).
 * The blocks are read from the READMEs at test time, so the README is the only copy.
 *
 * <p>
 * A block that declares a type is a compilation unit, compiled as it is. Any other block
 * is a fragment: its statements are compiled as the body of a method, after its own
 * imports. What the surrounding text gives a fragment (a bean, a variable) is declared in
 * a marker on the line above the fence, which Markdown does not render:
 * {@code <!-- java-fragment: org.springframework.ai.chat.client.ChatClient chatClient; String conversationId -->}.
 * All blocks compile together in one package, so a fragment may use a type a unit block
 * declares ({@code WeatherTools}).
 */
class ReadmeJavaSnippetsTests {

	private static final Pattern TYPE = Pattern
		.compile("(?m)^((?:public |final |abstract |sealed )*)(?:class|interface|record|enum|@interface) (\\w+)");

	private static final String FRAGMENT = "java-fragment:";

	@Test
	void everyJavaBlockOfEveryReadmeCompilesWithItsImportsAndNoDeprecatedCall(@TempDir Path classes)
			throws IOException {
		Map<String, Readme.Block> sources = new LinkedHashMap<>();
		List<JavaFileObject> units = new ArrayList<>();
		for (Readme readme : Readme.all()) {
			for (Readme.Block block : readme.blocks("java")) {
				String className = className(block);
				String source = isUnit(block) ? "package readme; " + block.text() : fragment(block, className);
				units.add(new Source(className, source));
				sources.put(className, block);
			}
		}
		assertThat(sources).as("Java blocks of the READMEs").hasSizeGreaterThanOrEqualTo(9);
		DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		List<String> options = List.of("--release", "17", "-proc:none", "-Xlint:deprecation,removal", "-d",
				classes.toString(), "-classpath", testClassPath());
		boolean compiled = compiler.getTask(null, null, diagnostics, options, null, units).call();
		List<String> errors = new ArrayList<>();
		for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
			// A README shows the current API: a deprecated method (Spring AI's, ours) is
			// an error here.
			if (diagnostic.getKind() == Diagnostic.Kind.ERROR || isDeprecation(diagnostic)) {
				Readme.Block block = sources.get(((Source) diagnostic.getSource()).className);
				errors.add(block.file() + ":" + (block.line() + diagnostic.getLineNumber()) + ": "
						+ diagnostic.getMessage(Locale.ROOT));
			}
		}
		assertThat(errors).as("compiler errors and deprecations, at the README line").isEmpty();
		assertThat(compiled).isTrue();
		try (var files = Files.walk(classes.resolve("readme"))) {
			assertThat(files.filter((file) -> file.toString().endsWith(".class")).count())
				.isGreaterThanOrEqualTo(sources.size());
		}
	}

	@Test
	void aFragmentIsCompiledAsAMethodBodyWithItsMarkerDeclarations() {
		Readme.Block block = new Readme.Block("README.md", 10,
				"import java.util.Map;\n\nMap<String, Object> context = Map.of(\"id\", id);\n",
				"java-fragment: String id");
		String source = fragment(block, "Snippet");
		assertThat(source.lines().count()).isEqualTo(block.text().lines().count() + 1);
		assertThat(source).startsWith("package readme; import java.util.Map;")
			.contains("class Snippet { String id; void run() throws Exception { Map<String, Object> context")
			.endsWith("(\"id\", id);\n}}\n");
	}

	private static boolean isDeprecation(Diagnostic<? extends JavaFileObject> diagnostic) {
		return diagnostic.getKind() != Diagnostic.Kind.NOTE && diagnostic.getCode() != null
				&& diagnostic.getCode().contains("deprecated");
	}

	private static boolean isUnit(Readme.Block block) {
		return TYPE.matcher(block.text()).find();
	}

	// The public type of a unit (its file name), or a name made of the README and line.
	private static String className(Readme.Block block) {
		Matcher type = TYPE.matcher(block.text());
		String first = null;
		while (type.find()) {
			if (type.group(1).contains("public")) {
				return type.group(2);
			}
			first = (first != null) ? first : type.group(2);
		}
		String name = block.file().replaceAll("[^A-Za-z0-9]", "_") + "_" + block.line();
		return (first != null) ? first : "Snippet_" + name;
	}

	// The block with "package readme;" before its first line and the class and method
	// around its statements, on
	// the lines they start at, so that a compiler error's line is the README's.
	static String fragment(Readme.Block block, String className) {
		String givens = "";
		if (block.marker() != null && block.marker().startsWith(FRAGMENT)) {
			StringBuilder fields = new StringBuilder();
			for (String given : block.marker().substring(FRAGMENT.length()).split(";")) {
				if (!given.isBlank()) {
					fields.append(given.strip()).append("; ");
				}
			}
			givens = fields.toString();
		}
		List<String> lines = new ArrayList<>(block.text().lines().toList());
		int body = 0;
		while (body < lines.size() && (lines.get(body).isBlank() || lines.get(body).startsWith("import "))) {
			body++;
		}
		lines.set(body, "class " + className + " { " + givens + "void run() throws Exception { " + lines.get(body));
		lines.set(0, "package readme; " + lines.get(0));
		// On a line of its own: the last line may end with a comment.
		return String.join("\n", lines) + "\n}}\n";
	}

	private static String testClassPath() {
		// Surefire runs the tests from a manifest-only jar and gives the real class path
		// in this property.
		String classPath = System.getProperty("surefire.test.class.path");
		return (classPath != null && !classPath.isBlank()) ? classPath : System.getProperty("java.class.path");
	}

	private static final class Source extends SimpleJavaFileObject {

		private final String className;

		private final String text;

		Source(String className, String text) {
			super(URI.create("string:///readme/" + className + ".java"), Kind.SOURCE);
			this.className = className;
			this.text = text;
		}

		@Override
		public CharSequence getCharContent(boolean ignoreEncodingErrors) {
			return this.text;
		}

	}

}
