package dev.agentmiddleware.sample.workspace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * File tools confined to the {@link Workspace}: list and read are safe and run at once;
 * write is moderate (it needs approval only in the {@code approve-writes} profile, which
 * lists it under {@code agent.middleware.approval.sensitive-tools}); delete is dangerous,
 * so under the default approval policy each call waits until a person approves it in the
 * approval console, through the REST API under {@code /agent/approvals}, or in an MCP
 * client that supports elicitation, and is denied after two minutes.
 *
 * <p>
 * Paths are relative to the workspace root. Failures are exceptions whose messages name
 * the path as the model gave it, never the workspace's location on disk: a path that
 * leaves the workspace is an {@link IllegalArgumentException}, a file that is missing or
 * of the wrong kind a {@link FileSystemException} such as
 * {@code notes.txt: no such file in the workspace}.
 *
 * <p>
 * Only regular files with a single hard link are read or written (a FIFO would block a
 * read forever; a planted hard link can reach outside the workspace). A write goes to a
 * temporary file in the same directory that is then moved into place atomically, so
 * readers never see an empty or half-written file and of concurrent writers the last one
 * wins whole.
 */
@Component
public class WorkspaceTools {

	/**
	 * The largest file, in bytes, that {@code read_file} reads and {@code write_file}
	 * writes.
	 */
	public static final int MAX_FILE_BYTES = 1024 * 1024;

	private final Workspace workspace;

	private final WorkspaceChangeListener changes;

	public WorkspaceTools(Workspace workspace) {
		this(workspace, WorkspaceChangeListener.NONE);
	}

	@Autowired
	public WorkspaceTools(Workspace workspace, WorkspaceChangeListener changes) {
		this.workspace = workspace;
		this.changes = changes;
	}

	@AgentTool(title = "List workspace files",
			description = "Lists the files and directories directly inside a directory of the workspace, "
					+ "as paths relative to the workspace root; directory paths end with '/'",
			safety = SafetyLevel.SAFE, readOnly = true)
	public List<String> listFiles(
			@AgentToolParam(description = "Directory relative to the workspace root; " + "the root itself when omitted",
					required = false) @Nullable String directory)
			throws IOException {
		boolean atRoot = directory == null || directory.isBlank();
		String shown = atRoot ? "." : directory;
		Path resolved = atRoot ? this.workspace.root() : this.workspace.resolve(directory);
		try (Stream<Path> entries = Files.list(resolved)) {
			return entries.map(this::listed).sorted().toList();
		}
		catch (FileSystemException ex) {
			throw shownAs(shown, ex);
		}
	}

	@AgentTool(title = "Read a file", description = "Reads a UTF-8 text file of the workspace, up to 1 MiB",
			safety = SafetyLevel.SAFE, readOnly = true)
	public String readFile(@AgentToolParam(description = "File path relative to the workspace root") String path)
			throws IOException {
		Path file = this.workspace.resolve(path);
		try {
			Path real = file.toRealPath();
			if (Files.isDirectory(real)) {
				throw new FileSystemException(path, null, "is a directory; use list_files to see what it holds");
			}
			checkOrdinaryFile(path, real);
			long size = Files.size(real);
			if (size > MAX_FILE_BYTES) {
				throw new FileSystemException(path, null,
						"is " + size + " bytes; read_file reads at most " + MAX_FILE_BYTES + " bytes");
			}
			return Files.readString(real);
		}
		catch (CharacterCodingException ex) {
			throw new FileSystemException(path, null, "is not UTF-8 text");
		}
		catch (FileSystemException ex) {
			throw shownAs(path, ex);
		}
	}

	@AgentTool(title = "Write a file",
			description = "Writes UTF-8 text to a file of the workspace, replacing what it held and creating "
					+ "missing parent directories",
			safety = SafetyLevel.MODERATE)
	public String writeFile(@AgentToolParam(description = "File path relative to the workspace root") String path,
			@AgentToolParam(description = "The complete new content of the file") String content) throws IOException {
		Path file = this.workspace.resolve(path);
		byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
		if (bytes.length > MAX_FILE_BYTES) {
			throw new IllegalArgumentException(
					"Content is " + bytes.length + " bytes; write_file writes at most " + MAX_FILE_BYTES + " bytes");
		}
		Path target;
		try {
			if (Files.isDirectory(file)) {
				throw new FileSystemException(path, null, "is a directory");
			}
			Files.createDirectories(file.getParent());
			// Write through an in-workspace link to the file it names, never over the
			// link itself
			target = Files.exists(file) ? file.toRealPath() : file.getParent().toRealPath().resolve(file.getFileName());
			if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
				checkOrdinaryFile(path, target);
			}
			replaceAtomically(target, bytes);
		}
		catch (FileSystemException ex) {
			throw shownAs(path, ex);
		}
		this.changes.changed(target);
		return "Wrote " + bytes.length + " bytes to " + this.workspace.relativePath(file);
	}

	@AgentTool(title = "Delete a file", description = "Deletes a file of the workspace; directories are not deleted",
			safety = SafetyLevel.DANGEROUS)
	public String deleteFile(@AgentToolParam(description = "File path relative to the workspace root") String path)
			throws IOException {
		Path file = this.workspace.resolve(path);
		try {
			if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
				throw new FileSystemException(path, null, "is a directory; delete_file deletes files only");
			}
			Files.delete(file);
		}
		catch (FileSystemException ex) {
			throw shownAs(path, ex);
		}
		this.changes.changed(file);
		return "Deleted " + this.workspace.relativePath(file);
	}

	/**
	 * Refuses what is not an ordinary file of the workspace: a FIFO, socket or device
	 * (reading a FIFO would block forever) and a file with more than one hard link (a
	 * link planted in the workspace can name a file outside it, and no path check can
	 * tell).
	 */
	static void checkOrdinaryFile(String path, Path real) throws IOException {
		BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class,
				LinkOption.NOFOLLOW_LINKS);
		if (!attributes.isRegularFile()) {
			throw new FileSystemException(path, null,
					"is not a regular file (a FIFO, socket or device); the file tools handle regular files only");
		}
		if (hardLinks(real) > 1) {
			throw new FileSystemException(path, null,
					"has more than one hard link; refused, as a hard link can reach a file outside the workspace");
		}
	}

	private static int hardLinks(Path file) throws IOException {
		try {
			return ((Number) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue();
		}
		catch (UnsupportedOperationException | IllegalArgumentException ex) {
			// Not a POSIX file system: no hard links to check
			return 1;
		}
	}

	/**
	 * Writes to a temporary file next to the target, then moves it into place atomically:
	 * a concurrent reader sees the whole old or the whole new content, and of concurrent
	 * writers the last one to move wins.
	 */
	private static void replaceAtomically(Path target, byte[] bytes) throws IOException {
		Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
		try {
			try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
				ByteBuffer buffer = ByteBuffer.wrap(bytes);
				while (buffer.hasRemaining()) {
					channel.write(buffer);
				}
				channel.force(true);
			}
			try {
				Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException ex) {
				Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		finally {
			Files.deleteIfExists(temporary);
		}
	}

	private String listed(Path entry) {
		return this.workspace.relativePath(entry) + (Files.isDirectory(entry) ? "/" : "");
	}

	// The file system's own exceptions name the absolute path; the model gets the path it
	// gave instead.
	static FileSystemException shownAs(String path, FileSystemException ex) {
		String reason = (ex.getReason() != null) ? ex.getReason() : reasonFor(ex);
		return (ex instanceof NoSuchFileException) ? new NoSuchFileException(path, null, reason)
				: new FileSystemException(path, null, reason);
	}

	private static String reasonFor(FileSystemException ex) {
		if (ex instanceof NoSuchFileException) {
			return "no such file in the workspace";
		}
		if (ex instanceof NotDirectoryException) {
			return "not a directory";
		}
		if (ex instanceof AccessDeniedException) {
			return "access denied";
		}
		if (ex instanceof DirectoryNotEmptyException) {
			return "directory not empty";
		}
		if (ex instanceof FileAlreadyExistsException) {
			return "a file is in the way";
		}
		return "cannot be accessed";
	}

}
