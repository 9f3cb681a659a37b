package dev.agentmiddleware.sample.workspace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import dev.agentmiddleware.sample.latency.SimulatedLatency;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link WorkspaceArchiveTools}, called directly with a latency that records
 * what it was asked to wait.
 */
class WorkspaceArchiveToolsTests {

	@TempDir
	Path temp;

	private Workspace workspace;

	private Path root;

	private final List<Duration> waited = new ArrayList<>();

	private final List<Path> changed = new ArrayList<>();

	@BeforeEach
	void createWorkspace() throws IOException {
		this.workspace = new Workspace(this.temp.resolve("workspace"));
		this.root = this.workspace.root();
	}

	@Test
	void archivesTheFilesOfADirectoryIntoAZipNextToItAndDeletesThem() throws Exception {
		Files.createDirectories(this.root.resolve("reports/drafts"));
		Files.writeString(this.root.resolve("reports/q1.txt"), "first quarter");
		Files.writeString(this.root.resolve("reports/q2.txt"), "second quarter");
		Files.writeString(this.root.resolve("reports/drafts/q3.txt"), "draft");

		String result = tools(this.waited::add).archiveDirectory("reports");

		assertThat(result).isEqualTo("Archived 2 files of reports into reports.zip");
		assertThat(this.waited).containsExactly(WorkspaceArchiveTools.PER_FILE, WorkspaceArchiveTools.PER_FILE);
		assertThat(entries(this.root.resolve("reports.zip"))).containsExactly(Map.entry("q1.txt", "first quarter"),
				Map.entry("q2.txt", "second quarter"));
		assertThat(this.root.resolve("reports/q1.txt")).doesNotExist();
		assertThat(this.root.resolve("reports/q2.txt")).doesNotExist();
		assertThat(this.root.resolve("reports/drafts/q3.txt")).as("directories inside stay").exists();
		assertThat(this.changed).containsExactly(this.root.resolve("reports/q1.txt"),
				this.root.resolve("reports/q2.txt"), this.root.resolve("reports.zip"));
		try (var left = Files.list(this.root)) {
			assertThat(left.map((path) -> path.getFileName().toString())).containsExactlyInAnyOrder("reports",
					"reports.zip");
		}
	}

	@Test
	void anInterruptedArchiveLeavesTheDirectoryAsItWasAndNoArchive() throws Exception {
		Files.createDirectories(this.root.resolve("reports"));
		Files.writeString(this.root.resolve("reports/q1.txt"), "first quarter");
		Files.writeString(this.root.resolve("reports/q2.txt"), "second quarter");
		SimulatedLatency interruptedAtTheSecondFile = (duration) -> {
			this.waited.add(duration);
			if (this.waited.size() == 2) {
				throw new InterruptedException("cancelled");
			}
		};

		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> tools(interruptedAtTheSecondFile).archiveDirectory("reports"));

		assertThat(this.root.resolve("reports/q1.txt")).hasContent("first quarter");
		assertThat(this.root.resolve("reports/q2.txt")).hasContent("second quarter");
		assertThat(this.changed).isEmpty();
		try (var left = Files.list(this.root)) {
			assertThat(left.map((path) -> path.getFileName().toString())).containsExactly("reports");
		}
	}

	@Test
	void aDirectoryWithoutFilesIsLeftAlone() throws Exception {
		Files.createDirectories(this.root.resolve("empty/inner"));

		assertThat(tools(this.waited::add).archiveDirectory("empty"))
			.isEqualTo("Nothing to archive: empty holds no files");
		assertThat(this.root.resolve("empty.zip")).doesNotExist();
		assertThat(this.waited).isEmpty();
	}

	@Test
	void refusesTheRootAMissingDirectoryAFileAndAnArchiveInTheWay() throws Exception {
		Files.createDirectories(this.root.resolve("reports"));
		Files.writeString(this.root.resolve("reports/q1.txt"), "first quarter");
		Files.writeString(this.root.resolve("reports.zip"), "an older archive");
		WorkspaceArchiveTools tools = tools(this.waited::add);

		assertThatIllegalArgumentException().isThrownBy(() -> tools.archiveDirectory("."))
			.withMessage("The workspace root cannot be archived; give one of its directories");
		assertThatIllegalArgumentException().isThrownBy(() -> tools.archiveDirectory("../elsewhere"))
			.withMessage("Path '../elsewhere' is outside the workspace");
		assertThatExceptionOfType(NoSuchFileException.class).isThrownBy(() -> tools.archiveDirectory("missing"))
			.withMessage("missing: no such file in the workspace");
		assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> tools.archiveDirectory("reports.zip"))
			.withMessage("reports.zip: not a directory");
		assertThatExceptionOfType(FileAlreadyExistsException.class).isThrownBy(() -> tools.archiveDirectory("reports"))
			.withMessage("reports.zip: is in the way of the archive");
		assertThat(this.root.resolve("reports/q1.txt")).exists();
		assertThat(this.root.resolve("reports.zip")).hasContent("an older archive");
		assertThat(this.waited).isEmpty();
	}

	private WorkspaceArchiveTools tools(SimulatedLatency latency) {
		return new WorkspaceArchiveTools(this.workspace, this.changed::add, latency);
	}

	private static Map<String, String> entries(Path archive) throws IOException {
		Map<String, String> entries = new LinkedHashMap<>();
		try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(archive))) {
			for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
				entries.put(entry.getName(), new String(zip.readAllBytes(), StandardCharsets.UTF_8));
			}
		}
		return entries;
	}

}
