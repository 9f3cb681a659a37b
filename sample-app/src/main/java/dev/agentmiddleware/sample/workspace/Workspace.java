package dev.agentmiddleware.sample.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A directory that file tools may not leave. {@link #resolve} turns a path given by a
 * model into a path inside the workspace, or refuses it: empty paths, absolute paths,
 * paths whose {@code ..} segments climb out, and paths that go through a symbolic link to
 * somewhere outside.
 *
 * <p>
 * Error messages name the path as it was given and never the workspace's own location, so
 * they can go back to a model as they are.
 *
 * <p>
 * The checks look at the file system when the path is resolved. A process that can itself
 * change the workspace could swap a directory for a link between the check and the use;
 * this sandbox keeps a model in, not a hostile local user. <pre>{@code
 * Workspace workspace = new Workspace(Path.of("workspace"));
 * Path notes = workspace.resolve("notes/today.md");    // inside the workspace
 * workspace.resolve("../etc/passwd");                  // IllegalArgumentException: ... is outside the workspace
 * }</pre>
 */
public final class Workspace {

	private final Path root;

	/**
	 * Opens the workspace at {@code root}, creating the directory if it does not exist.
	 * @param root the workspace directory
	 * @throws IOException if the directory cannot be created
	 */
	public Workspace(Path root) throws IOException {
		Files.createDirectories(root);
		this.root = root.toRealPath();
	}

	/**
	 * The workspace directory, with symbolic links resolved. Not for messages meant for a
	 * model.
	 * @return the absolute, real path of the workspace directory
	 */
	public Path root() {
		return this.root;
	}

	/**
	 * Resolves a path relative to the workspace.
	 * @param relativePath the path relative to the workspace root, with {@code /}
	 * separators
	 * @return the normalized absolute path, inside the workspace; the file may not exist
	 * @throws IllegalArgumentException if the path is empty, absolute or leads out of the
	 * workspace
	 */
	public Path resolve(String relativePath) {
		if (relativePath.isBlank()) {
			throw new IllegalArgumentException("Path must not be empty; give a path relative to the workspace");
		}
		Path given;
		try {
			given = this.root.getFileSystem().getPath(relativePath);
		}
		catch (InvalidPathException ex) {
			throw new IllegalArgumentException("Path '" + relativePath + "' is not a valid path");
		}
		if (given.isAbsolute() || given.getRoot() != null) {
			throw new IllegalArgumentException(
					"Path '" + relativePath + "' is absolute; give a path relative to the workspace");
		}
		Path resolved = this.root.resolve(given).normalize();
		if (!resolved.startsWith(this.root)) {
			throw new IllegalArgumentException("Path '" + relativePath + "' is outside the workspace");
		}
		checkLinksStayInside(relativePath, resolved);
		return resolved;
	}

	/**
	 * Shows a path of the workspace the way a model gives it: relative to the root, with
	 * {@code /} separators.
	 * @param path a path inside the workspace
	 * @return the path relative to the workspace root
	 */
	public String relativePath(Path path) {
		return this.root.relativize(path).toString().replace(path.getFileSystem().getSeparator(), "/");
	}

	// The nearest part of the path that exists decides where it really leads: everything
	// below it is yet to be
	// created, and so cannot be a link.
	private void checkLinksStayInside(String relativePath, Path resolved) {
		Path existing = resolved;
		while (!existing.equals(this.root) && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
			existing = existing.getParent();
		}
		Path real;
		try {
			real = existing.toRealPath();
		}
		catch (IOException ex) {
			if (Files.isSymbolicLink(existing)) {
				throw new IllegalArgumentException("Path '" + relativePath + "' goes through a broken symbolic link");
			}
			throw new IllegalStateException("The workspace directory is not accessible");
		}
		if (!real.startsWith(this.root)) {
			throw new IllegalArgumentException(
					"Path '" + relativePath + "' is outside the workspace (through a symbolic link)");
		}
	}

}
