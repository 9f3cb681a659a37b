package dev.agentmiddleware.sample.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Workspace}.
 */
class WorkspaceTests {

	@TempDir
	Path temp;

	private Path root;

	private Workspace workspace;

	@BeforeEach
	void createWorkspace() throws IOException {
		this.root = this.temp.resolve("workspace");
		this.workspace = new Workspace(this.root);
	}

	@Test
	void createsTheRootDirectory() throws IOException {
		assertThat(this.root).isDirectory();
		assertThat(this.workspace.root()).isEqualTo(this.root.toRealPath());
	}

	@Test
	void resolvesNestedPathsInside() {
		assertThat(this.workspace.resolve("notes/2024/today.md"))
			.isEqualTo(this.workspace.root().resolve("notes/2024/today.md"));
	}

	@Test
	void resolvesDotDotThatStaysInside() {
		assertThat(this.workspace.resolve("notes/../todo.md")).isEqualTo(this.workspace.root().resolve("todo.md"));
	}

	@Test
	void refusesParentOfTheRoot() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("../x"))
			.withMessage("Path '../x' is outside the workspace");
	}

	@Test
	void refusesDotDotThatClimbsOutOfANestedPath() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("a/../../x"))
			.withMessage("Path 'a/../../x' is outside the workspace");
	}

	@Test
	void refusesAbsolutePaths() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("/etc/passwd"))
			.withMessage("Path '/etc/passwd' is absolute; give a path relative to the workspace");
	}

	@Test
	void refusesAbsolutePathsInsideTheWorkspace() {
		String inside = this.workspace.root().resolve("notes.txt").toString();
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve(inside))
			.withMessageContaining("is absolute");
	}

	@Test
	void refusesEmptyPaths() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve(""))
			.withMessage("Path must not be empty; give a path relative to the workspace");
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("  "))
			.withMessageStartingWith("Path must not be empty");
	}

	@Test
	void refusesInvalidPaths() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("a\0b"))
			.withMessage("Path 'a\0b' is not a valid path");
	}

	@Test
	void refusesSymbolicLinkToOutside() throws IOException {
		Path outside = Files.createDirectories(this.temp.resolve("outside"));
		Files.writeString(outside.resolve("secret.txt"), "secret");
		Files.createSymbolicLink(this.root.resolve("escape"), outside);
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("escape/secret.txt"))
			.withMessage("Path 'escape/secret.txt' is outside the workspace (through a symbolic link)");
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("escape/new/file.txt"))
			.withMessageContaining("outside the workspace");
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("escape"))
			.withMessageContaining("outside the workspace");
	}

	@Test
	void refusesSymbolicLinkFileToOutside() throws IOException {
		Path secret = Files.writeString(this.temp.resolve("secret.txt"), "secret");
		Files.createSymbolicLink(this.root.resolve("secret.txt"), secret);
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("secret.txt"))
			.withMessageContaining("outside the workspace");
	}

	@Test
	void refusesBrokenSymbolicLink() throws IOException {
		Files.createSymbolicLink(this.root.resolve("dangling"), this.temp.resolve("not-yet-created"));
		assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve("dangling"))
			.withMessage("Path 'dangling' goes through a broken symbolic link");
	}

	@Test
	void followsSymbolicLinkThatStaysInside() throws IOException {
		Path docs = Files.createDirectories(this.root.resolve("docs"));
		Files.createSymbolicLink(this.root.resolve("latest"), docs);
		assertThat(this.workspace.resolve("latest/readme.md"))
			.isEqualTo(this.workspace.root().resolve("latest/readme.md"));
	}

	@Test
	void messagesNeverNameTheWorkspaceLocation() {
		for (String path : new String[] { "../x", "a/../../x", "/etc/passwd", "" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> this.workspace.resolve(path))
				.withMessageNotContaining(this.temp.toString())
				.withMessageNotContaining(this.workspace.root().toString());
		}
	}

	@Test
	void showsPathsRelativeToTheRoot() {
		assertThat(this.workspace.relativePath(this.workspace.root().resolve("notes/today.md")))
			.isEqualTo("notes/today.md");
	}

}
