package dev.agentmiddleware.readme;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * The project's READMEs as the tests read them: the fenced code blocks with their
 * language, the line they start at and the HTML comment right above the fence (a
 * {@code <!-- java-fragment: ... -->} marker), and the Markdown tables. The READMEs are
 * the source; the tests take the blocks from them, so that a README and its test cannot
 * drift apart.
 */
final class Readme {

	private static final Pattern FENCE = Pattern.compile("^```([a-z]*)\\s*$");

	private static final Pattern MARKER = Pattern.compile("^<!--\\s*(.*?)\\s*-->\\s*$");

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");

	private final Path path;

	private final List<String> lines;

	private Readme(Path path) {
		this.path = path;
		try {
			this.lines = Files.readAllLines(path);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The root README, the reference in {@code docs/} and the README of every module.
	 * @return them
	 */
	static List<Readme> all() {
		Path root = projectRoot();
		List<Readme> readmes = new ArrayList<>(documentation());
		try (Stream<Path> modules = Files.list(root)) {
			modules.map((module) -> module.resolve("README.md"))
				.filter(Files::isRegularFile)
				.sorted()
				.forEach((readme) -> readmes.add(new Readme(readme)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return readmes;
	}

	/**
	 * The root README and the reference it links to, one page per topic in {@code docs/}.
	 * @return them, the README first
	 */
	static List<Readme> documentation() {
		Path root = projectRoot();
		List<Readme> pages = new ArrayList<>();
		pages.add(new Readme(root.resolve("README.md")));
		Path docs = root.resolve("docs");
		if (Files.isDirectory(docs)) {
			try (Stream<Path> files = Files.list(docs)) {
				files.filter((file) -> file.getFileName().toString().endsWith(".md"))
					.sorted()
					.forEach((page) -> pages.add(new Readme(page)));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return pages;
	}

	/**
	 * The rows of the table whose header row starts with the given cells, wherever in the
	 * {@linkplain #documentation() documentation} it is.
	 * @param header the first header cells
	 * @return each row's cells, trimmed, in order
	 */
	static List<Row> documentedTable(String... header) {
		for (Readme page : documentation()) {
			if (page.hasTable(header)) {
				return page.table(header);
			}
		}
		throw new IllegalStateException("No page of the documentation has a table with the header " + List.of(header));
	}

	private boolean hasTable(String... header) {
		return this.lines.stream().map(Readme::cells).anyMatch((cells) -> startsWith(cells, header));
	}

	private static boolean startsWith(List<String> cells, String... header) {
		return cells.size() >= header.length && cells.subList(0, header.length).equals(List.of(header));
	}

	private static Path projectRoot() {
		Path directory = Path.of("").toAbsolutePath();
		while (directory != null && !Files.isRegularFile(directory.resolve("mvnw"))) {
			directory = directory.getParent();
		}
		if (directory == null) {
			throw new IllegalStateException("No project root (with mvnw) above " + Path.of("").toAbsolutePath());
		}
		return directory;
	}

	/**
	 * The file, relative to the project root, for messages.
	 * @return the name
	 */
	String name() {
		return projectRoot().relativize(this.path).toString();
	}

	/**
	 * The page's file.
	 * @return its path
	 */
	Path path() {
		return this.path;
	}

	/**
	 * The relative links of the page (to a file, a heading of a file, or a heading of the
	 * page), outside code blocks.
	 * @return each link as written, with the line it is on
	 */
	List<Link> links() {
		List<Link> links = new ArrayList<>();
		boolean code = false;
		for (int i = 0; i < this.lines.size(); i++) {
			String line = this.lines.get(i);
			if (line.startsWith("```")) {
				code = !code;
			}
			Matcher link = LINK.matcher(line);
			while (!code && link.find()) {
				String url = link.group(1);
				if (!url.matches("^[a-z]+:.*")) {
					links.add(new Link(name(), i + 1, url));
				}
			}
		}
		return links;
	}

	/**
	 * The anchors of the page's headings, as GitHub makes them (lower case, punctuation
	 * dropped, spaces as hyphens, {@code -1}, {@code -2} for repeats).
	 * @return the anchors
	 */
	Set<String> anchors() {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean code = false;
		for (String line : this.lines) {
			if (line.startsWith("```")) {
				code = !code;
			}
			Matcher heading = HEADING.matcher(line);
			if (!code && heading.matches()) {
				String anchor = heading.group(1)
					.strip()
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
					.replace(' ', '-');
				int repeat = seen.merge(anchor, 1, Integer::sum) - 1;
				anchors.add((repeat == 0) ? anchor : anchor + "-" + repeat);
			}
		}
		return anchors;
	}

	/**
	 * Reads another page.
	 * @param path its file
	 * @return the page
	 */
	static Readme of(Path path) {
		return new Readme(path);
	}

	/**
	 * The fenced blocks of a language.
	 * @param language such as {@code java} or {@code yaml}
	 * @return the blocks, in order
	 */
	List<Block> blocks(String language) {
		List<Block> blocks = new ArrayList<>();
		for (int i = 0; i < this.lines.size(); i++) {
			Matcher open = FENCE.matcher(this.lines.get(i));
			if (!open.matches() || open.group(1).isEmpty()) {
				continue;
			}
			int start = i;
			StringBuilder text = new StringBuilder();
			for (i++; i < this.lines.size() && !this.lines.get(i).startsWith("```"); i++) {
				text.append(this.lines.get(i)).append('\n');
			}
			if (open.group(1).equals(language) || (language.equals("yaml") && open.group(1).equals("yml"))) {
				blocks.add(new Block(name(), start + 1, text.toString(), marker(start)));
			}
		}
		return blocks;
	}

	private @Nullable String marker(int fence) {
		if (fence == 0) {
			return null;
		}
		Matcher marker = MARKER.matcher(this.lines.get(fence - 1));
		return marker.matches() ? marker.group(1) : null;
	}

	/**
	 * The rows of the Markdown table whose header row starts with the given cells.
	 * @param header the first header cells, such as {@code "prefix `agent.middleware.`"}
	 * @return each row's cells, trimmed, in order
	 */
	List<Row> table(String... header) {
		List<Row> rows = new ArrayList<>();
		for (int i = 0; i < this.lines.size(); i++) {
			if (!startsWith(cells(this.lines.get(i)), header)) {
				continue;
			}
			for (i += 2; i < this.lines.size() && this.lines.get(i).startsWith("|"); i++) {
				rows.add(new Row(name(), i + 1, cells(this.lines.get(i))));
			}
			return rows;
		}
		throw new IllegalStateException(name() + " has no table with the header " + List.of(header));
	}

	// Cells split at '|' that is not escaped (\|) and not inside backticks.
	private static List<String> cells(String line) {
		List<String> cells = new ArrayList<>();
		if (!line.startsWith("|")) {
			return cells;
		}
		StringBuilder cell = new StringBuilder();
		boolean code = false;
		for (int i = 1; i < line.length(); i++) {
			char c = line.charAt(i);
			if (c == '`') {
				code = !code;
			}
			if (c == '\\' && i + 1 < line.length() && line.charAt(i + 1) == '|') {
				cell.append('|');
				i++;
			}
			else if (c == '|' && !code) {
				cells.add(cell.toString().trim());
				cell.setLength(0);
			}
			else {
				cell.append(c);
			}
		}
		return cells;
	}

	/**
	 * A fenced code block.
	 *
	 * @param file the README it is in
	 * @param line the line of its opening fence
	 * @param text its text
	 * @param marker the HTML comment right above the fence, without {@code <!--} and
	 * {@code -->}
	 */
	record Block(String file, int line, String text, @Nullable String marker) {

		@Override
		public String toString() {
			return this.file + ":" + this.line;
		}

	}

	/**
	 * A relative link.
	 *
	 * @param file the page it is in
	 * @param line its line
	 * @param url what it points to, such as {@code docs/approval.md#human-approval}
	 */
	record Link(String file, int line, String url) {

		@Override
		public String toString() {
			return this.file + ":" + this.line + ": " + this.url;
		}

	}

	/**
	 * A table row.
	 *
	 * @param file the page it is in
	 * @param line its line
	 * @param cells its cells
	 */
	record Row(String file, int line, List<String> cells) {

		@Override
		public String toString() {
			return this.file + ":" + this.line;
		}

	}

}
