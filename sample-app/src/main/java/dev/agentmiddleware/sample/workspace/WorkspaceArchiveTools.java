package dev.agentmiddleware.sample.workspace;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import dev.agentmiddleware.sample.latency.SimulatedLatency;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.springframework.stereotype.Component;

/**
 * Archives a directory of the {@link Workspace}: the files directly inside it go into a
 * zip archive next to it ({@code reports} into {@code reports.zip}), and are then deleted
 * (directories inside it stay). Each file takes a moment ({@link #PER_FILE}, the time a
 * real archiver spends compressing it), so the tool may run as an MCP task
 * ({@code taskSupport = OPTIONAL}): a client of the MCP {@code 2026-07-28} tasks
 * extension gets the task at once and polls it, or cancels it; any other client calls it
 * as usual. It deletes files, so it is dangerous: under the default approval policy each
 * call waits for an approver first. A call cancelled or interrupted before its end leaves
 * the directory as it was and no archive.
 */
@Component
public class WorkspaceArchiveTools {

	/** How long each file takes to compress. */
	public static final Duration PER_FILE = Duration.ofMillis(200);

	private final Workspace workspace;

	private final WorkspaceChangeListener changes;

	private final SimulatedLatency latency;

	/**
	 * Creates the tool.
	 * @param workspace the workspace
	 * @param changes told of every file deleted and of the archive written
	 * @param latency how the compression's time passes ({@link SimulatedLatency#REAL} in
	 * the application)
	 */
	public WorkspaceArchiveTools(Workspace workspace, WorkspaceChangeListener changes, SimulatedLatency latency) {
		this.workspace = workspace;
		this.changes = changes;
		this.latency = latency;
	}

	@AgentTool(title = "Archive a directory",
			description = "Packs the files directly inside a directory of the workspace into a zip archive next to it "
					+ "(<directory>.zip) and deletes them; takes a moment per file",
			safety = SafetyLevel.DANGEROUS, taskSupport = TaskSupport.OPTIONAL)
	public String archiveDirectory(
			@AgentToolParam(description = "Directory relative to the workspace root") String directory)
			throws IOException, InterruptedException {
		Path resolved = this.workspace.resolve(directory);
		if (resolved.equals(this.workspace.root())) {
			throw new IllegalArgumentException("The workspace root cannot be archived; give one of its directories");
		}
		Path archive = resolved.resolveSibling(resolved.getFileName() + ".zip");
		List<Path> files;
		try (Stream<Path> entries = Files.list(resolved)) {
			files = entries.filter((entry) -> Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
			for (Path file : files) {
				WorkspaceTools.checkOrdinaryFile(this.workspace.relativePath(file), file);
			}
			if (Files.exists(archive, LinkOption.NOFOLLOW_LINKS)) {
				throw new FileAlreadyExistsException(this.workspace.relativePath(archive), null,
						"is in the way of the archive");
			}
		}
		catch (FileAlreadyExistsException ex) {
			throw ex;
		}
		catch (FileSystemException ex) {
			throw WorkspaceTools.shownAs(directory, ex);
		}
		if (files.isEmpty()) {
			return "Nothing to archive: " + this.workspace.relativePath(resolved) + " holds no files";
		}
		writeArchive(archive, files);
		for (Path file : files) {
			Files.delete(file);
			this.changes.changed(file);
		}
		this.changes.changed(archive);
		return "Archived " + files.size() + ((files.size() == 1) ? " file" : " files") + " of "
				+ this.workspace.relativePath(resolved) + " into " + this.workspace.relativePath(archive);
	}

	// The archive is written next to its place and moved there once whole: a call that
	// stops half-way leaves nothing behind
	private void writeArchive(Path archive, List<Path> files) throws IOException, InterruptedException {
		Path temporary = Files.createTempFile(archive.getParent(), "." + archive.getFileName() + ".", ".tmp");
		try {
			try (OutputStream out = Files.newOutputStream(temporary); ZipOutputStream zip = new ZipOutputStream(out)) {
				for (Path file : files) {
					this.latency.pass(PER_FILE);
					zip.putNextEntry(new ZipEntry(file.getFileName().toString()));
					Files.copy(file, zip);
					zip.closeEntry();
				}
			}
			Files.move(temporary, archive);
		}
		finally {
			Files.deleteIfExists(temporary);
		}
	}

}
