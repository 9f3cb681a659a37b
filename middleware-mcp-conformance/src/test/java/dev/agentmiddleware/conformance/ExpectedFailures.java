package dev.agentmiddleware.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An expected-failures baseline of the conformance suite, in the suite's own format (a
 * YAML list of scenario names under {@code server:}), read here too so that the test can
 * say which entry is wrong. Every entry carries its reason as a comment on its line:
 * {@code - tools-call-image  # an @AgentTool result is text or JSON only}.
 *
 * @param file the baseline file
 * @param reasons each scenario expected to fail, with why
 */
record ExpectedFailures(Path file, Map<String, String> reasons) {

	private static final Pattern ENTRY = Pattern.compile("\\s*-\\s*([^\\s#]+)\\s*(?:#\\s*(.*))?");

	static ExpectedFailures read(Path file) throws IOException {
		Map<String, String> reasons = new LinkedHashMap<>();
		boolean server = false;
		List<String> lines = Files.readAllLines(file);
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (line.isBlank() || line.stripLeading().startsWith("#")) {
				continue;
			}
			if (!Character.isWhitespace(line.charAt(0)) && !line.startsWith("-")) {
				// "server: []" once nothing is expected to fail (the suite refuses an
				// empty "server:")
				server = line.strip().equals("server:");
				continue;
			}
			Matcher entry = ENTRY.matcher(line);
			if (!server || !entry.matches()) {
				throw new IllegalStateException(file + ":" + (i + 1) + ": not an entry of 'server:': " + line);
			}
			String reason = entry.group(2);
			if (reason == null || reason.isBlank()) {
				throw new IllegalStateException(file + ":" + (i + 1) + ": " + entry.group(1)
						+ " has no reason; say why it fails in a comment on its line");
			}
			reasons.put(entry.group(1), reason.strip());
		}
		return new ExpectedFailures(file, reasons);
	}

}
