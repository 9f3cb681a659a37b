package dev.agentmiddleware.sample.workspace;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link WorkspaceTools}, called directly.
 */
class WorkspaceToolsTests {

	@TempDir
	Path temp;

	private Path root;

	private WorkspaceTools tools;

	@BeforeEach
	void createTools() throws IOException {
		Workspace workspace = new Workspace(this.temp.resolve("workspace"));
		this.root = workspace.root();
		this.tools = new WorkspaceTools(workspace);
	}

	@Test
	void writtenFileReadsBack() throws IOException {
		assertThat(this.tools.writeFile("notes/today.md", "Buy milk")).isEqualTo("Wrote 8 bytes to notes/today.md");
		assertThat(this.root.resolve("notes/today.md")).hasContent("Buy milk");
		assertThat(this.tools.readFile("notes/today.md")).isEqualTo("Buy milk");
	}

	@Test
	void listsTheRootWhenNoDirectoryIsGiven() throws IOException {
		this.tools.writeFile("b.txt", "b");
		this.tools.writeFile("a/c.txt", "c");
		assertThat(this.tools.listFiles(null)).containsExactly("a/", "b.txt");
		assertThat(this.tools.listFiles("")).containsExactly("a/", "b.txt");
		assertThat(this.tools.listFiles("a")).containsExactly("a/c.txt");
	}

	@Test
	void missingFileFailsWithTheGivenPathOnly() {
		assertThatExceptionOfType(NoSuchFileException.class).isThrownBy(() -> this.tools.readFile("missing.txt"))
			.withMessage("missing.txt: no such file in the workspace");
		assertThatExceptionOfType(NoSuchFileException.class).isThrownBy(() -> this.tools.deleteFile("missing.txt"))
			.withMessage("missing.txt: no such file in the workspace");
		assertThatExceptionOfType(NoSuchFileException.class).isThrownBy(() -> this.tools.listFiles("missing"))
			.withMessage("missing: no such file in the workspace");
	}

	@Test
	void listingAFileFails() throws IOException {
		this.tools.writeFile("a.txt", "a");
		assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> this.tools.listFiles("a.txt"))
			.withMessage("a.txt: not a directory");
	}

	@Test
	void readingTooLargeAFileFails() throws IOException {
		Files.write(this.root.resolve("big.bin"), new byte[WorkspaceTools.MAX_FILE_BYTES + 1]);
		assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> this.tools.readFile("big.bin"))
			.withMessage("big.bin: is 1048577 bytes; read_file reads at most 1048576 bytes");
	}

	@Test
	void readingBinaryFails() throws IOException {
		Files.write(this.root.resolve("image.png"), new byte[] { (byte) 0x89, 'P', 'N', 'G', (byte) 0xff });
		assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> this.tools.readFile("image.png"))
			.withMessage("image.png: is not UTF-8 text");
	}

	@Test
	void writingTooMuchFails() {
		String content = "x".repeat(WorkspaceTools.MAX_FILE_BYTES + 1);
		assertThatIllegalArgumentException().isThrownBy(() -> this.tools.writeFile("big.txt", content))
			.withMessage("Content is 1048577 bytes; write_file writes at most 1048576 bytes");
		assertThat(this.root.resolve("big.txt")).doesNotExist();
	}

	@Test
	void deletesFiles() throws IOException {
		this.tools.writeFile("old.txt", "old");
		assertThat(this.tools.deleteFile("old.txt")).isEqualTo("Deleted old.txt");
		assertThat(this.root.resolve("old.txt")).doesNotExist();
	}

	@Test
	void doesNotDeleteDirectoriesOrTheRoot() throws IOException {
		this.tools.writeFile("dir/keep.txt", "keep");
		assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> this.tools.deleteFile("dir"))
			.withMessage("dir: is a directory; delete_file deletes files only");
		assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> this.tools.deleteFile("."))
			.withMessageContaining("is a directory");
		assertThat(this.root.resolve("dir/keep.txt")).exists();
	}

	@Test
	void everyToolRefusesPathsOutsideTheWorkspace() throws IOException {
		Files.writeString(this.temp.resolve("secret.txt"), "secret");
		assertThatIllegalArgumentException().isThrownBy(() -> this.tools.readFile("../secret.txt"))
			.withMessage("Path '../secret.txt' is outside the workspace");
		assertThatIllegalArgumentException().isThrownBy(() -> this.tools.writeFile("../secret.txt", "gone"))
			.withMessageContaining("outside the workspace");
		assertThatIllegalArgumentException().isThrownBy(() -> this.tools.deleteFile("../secret.txt"))
			.withMessageContaining("outside the workspace");
		assertThatIllegalArgumentException().isThrownBy(() -> this.tools.listFiles(".."))
			.withMessageContaining("outside the workspace");
		assertThat(this.temp.resolve("secret.txt")).hasContent("secret");
	}

}
