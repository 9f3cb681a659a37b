package dev.agentmiddleware.sample.workspace;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.cache.CachePolicy;
import dev.agentmiddleware.cache.ToolResultCache;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.support.StaticListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The workspace file tools under concurrent writers, FIFOs, planted hard links and
 * symbolic-link aliases.
 */
class WorkspaceFileSafetyTests {

	private static final int WRITERS = 8;

	private static final int READERS = 2;

	private static final int ROUNDS = 40;

	@TempDir
	Path temp;

	private Workspace workspace;

	private WorkspaceTools tools;

	@BeforeEach
	void createTools() throws IOException {
		this.workspace = new Workspace(this.temp.resolve("workspace"));
		this.tools = new WorkspaceTools(this.workspace);
	}

	@Test
	void concurrentWritersNeverTearAFileAndReadersSeeOnlyWholeContents() throws Exception {
		List<String> contents = new ArrayList<>();
		for (int writer = 0; writer < WRITERS; writer++) {
			// Large enough that a torn write or a partial read would show: 64 KiB of one
			// writer's letter
			contents.add(("writer " + writer + "\n") + String.valueOf((char) ('a' + writer)).repeat(64 * 1024));
		}
		String initial = "initial";
		this.tools.writeFile("shared/notes.txt", initial);
		Set<String> allowed = new HashSet<>(contents);
		allowed.add(initial);
		ExecutorService executor = Executors.newFixedThreadPool(WRITERS + READERS);
		ConcurrentLinkedQueue<String> badReads = new ConcurrentLinkedQueue<>();
		int reads = 0;
		try {
			for (int round = 0; round < ROUNDS; round++) {
				CyclicBarrier start = new CyclicBarrier(WRITERS + READERS);
				AtomicBoolean writing = new AtomicBoolean(true);
				List<Future<?>> writers = new ArrayList<>();
				List<Future<Integer>> readers = new ArrayList<>();
				for (int writer = 0; writer < WRITERS; writer++) {
					String content = contents.get(writer);
					writers.add(executor.submit(() -> {
						start.await();
						this.tools.writeFile("shared/notes.txt", content);
						return null;
					}));
				}
				for (int reader = 0; reader < READERS; reader++) {
					readers.add(executor.submit(() -> {
						start.await();
						int count = 0;
						do {
							String read = this.tools.readFile("shared/notes.txt");
							count++;
							if (!allowed.contains(read)) {
								badReads.add(read.isEmpty() ? "(empty)" : read.length() + " chars");
							}
						}
						while (writing.get() || count < 3);
						return count;
					}));
				}
				for (Future<?> writer : writers) {
					writer.get(30, TimeUnit.SECONDS);
				}
				writing.set(false);
				for (Future<Integer> reader : readers) {
					reads += reader.get(30, TimeUnit.SECONDS);
				}
				assertThat(contents).as("round %d: the file holds one writer's whole content", round)
					.contains(Files.readString(this.workspace.resolve("shared/notes.txt")));
			}
		}
		finally {
			executor.shutdownNow();
			assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(badReads).as("reads that were empty or partial").isEmpty();
		assertThat(reads).isGreaterThanOrEqualTo(ROUNDS * READERS * 3);
		try (var leftovers = Files.list(this.workspace.resolve("shared"))) {
			assertThat(leftovers.map((file) -> file.getFileName().toString())).as("no temporary file is left")
				.containsExactly("notes.txt");
		}
	}

	@Test
	void aFifoIsRefusedInsteadOfBlockingTheRead() throws Exception {
		Path fifo = this.workspace.root().resolve("pipe");
		Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
		assertThat(mkfifo.waitFor()).isZero();
		assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
			assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> this.tools.readFile("pipe"))
				.withMessage("pipe: is not a regular file (a FIFO, socket or device); "
						+ "the file tools handle regular files only");
			assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> this.tools.writeFile("pipe", "data"))
				.withMessageContaining("is not a regular file");
		});
	}

	@Test
	void aFileWithAPlantedHardLinkIsNeitherReadNorWritten() throws Exception {
		Path outside = Files.writeString(this.temp.resolve("outside-secret.txt"), "outside the workspace");
		Files.createLink(this.workspace.root().resolve("planted.txt"), outside);
		assertThatExceptionOfType(FileSystemException.class).isThrownBy(() -> this.tools.readFile("planted.txt"))
			.withMessage("planted.txt: has more than one hard link; refused, as a hard link can reach a file "
					+ "outside the workspace")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(this.temp.toString()));
		assertThatExceptionOfType(FileSystemException.class)
			.isThrownBy(() -> this.tools.writeFile("planted.txt", "overwritten"))
			.withMessageContaining("more than one hard link");
		assertThat(outside).hasContent("outside the workspace");
	}

	@Test
	void aWriteInvalidatesACachedReadThroughASymbolicLinkAlias() throws Exception {
		this.tools.writeFile("docs/real.txt", "version 1");
		Files.createSymbolicLink(this.workspace.root().resolve("alias.txt"), Path.of("docs/real.txt"));
		ToolResultCache results = ToolResultCache.builder().build();
		CacheMiddleware cache = CacheMiddleware.builder().defaultPolicy(CachePolicy.DEFAULT).cache(results).build();
		StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("results", results));
		WorkspaceTools tools = new WorkspaceTools(this.workspace,
				new CachedReadsInvalidator(this.workspace, beans.getBeanProvider(ToolResultCache.class)));
		ToolDescriptor readFile = ToolDescriptor.builder("read_file").readOnly(true).build();
		ToolPipeline reads = ToolPipeline
			.builder(readFile, (invocation) -> tools.readFile((String) invocation.arguments().get("path")))
			.middleware(cache)
			.build();
		assertThat(reads.call(read(readFile, "alias.txt"))).isEqualTo("version 1");
		assertThat(reads.call(read(readFile, "docs/../docs/real.txt"))).isEqualTo("version 1");
		tools.writeFile("docs/real.txt", "version 2");
		assertThat(reads.call(read(readFile, "alias.txt"))).as("read through the alias").isEqualTo("version 2");
		assertThat(reads.call(read(readFile, "docs/../docs/real.txt"))).isEqualTo("version 2");
		tools.writeFile("alias.txt", "version 3");
		assertThat(Files.isSymbolicLink(this.workspace.root().resolve("alias.txt")))
			.as("writing through the alias keeps the link")
			.isTrue();
		assertThat(reads.call(read(readFile, "docs/../docs/real.txt"))).isEqualTo("version 3");
		assertThat(reads.call(read(readFile, "alias.txt"))).isEqualTo("version 3");
	}

	private static ToolInvocation read(ToolDescriptor tool, String path) {
		return ToolInvocation.builder(tool).sessionId("s1").argument("path", path).build();
	}

}
