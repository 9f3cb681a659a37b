package dev.agentmiddleware.sample.workspace;

import java.io.IOException;
import java.nio.file.Path;

import dev.agentmiddleware.cache.ToolResultCache;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Keeps the cache of the read-only file tools honest: when {@code write_file} or
 * {@code delete_file} changes a file, the cached {@code read_file} results for that file
 * (whatever path spelling they were read with, through an in-workspace symbolic link too,
 * in every session) and every cached {@code list_files} result are dropped. Paths compare
 * as real paths; a cached path that no longer resolves is dropped as well. Shows how an
 * application invalidates cached tool results.
 */
@Component
class CachedReadsInvalidator implements WorkspaceChangeListener {

	private final Workspace workspace;

	private final ObjectProvider<ToolResultCache> cache;

	CachedReadsInvalidator(Workspace workspace, ObjectProvider<ToolResultCache> cache) {
		this.workspace = workspace;
		this.cache = cache;
	}

	@Override
	public void changed(Path file) {
		Path changed = realPath(file);
		this.cache.ifAvailable((cache) -> {
			cache.invalidate("read_file", (arguments) -> refersTo(arguments.get("path"), changed));
			cache.invalidate("list_files");
		});
	}

	private boolean refersTo(@Nullable Object path, @Nullable Path changed) {
		if (!(path instanceof String relative)) {
			return false;
		}
		Path read;
		try {
			read = realPath(this.workspace.resolve(relative));
		}
		catch (RuntimeException ex) {
			// No longer resolves (a link whose target went away): drop it rather than
			// keep a stale read
			return true;
		}
		return changed == null || read == null || read.equals(changed);
	}

	// The file's real path, or for a file that no longer exists its real directory's
	// entry; null if neither exists.
	private static @Nullable Path realPath(Path file) {
		try {
			return file.toRealPath();
		}
		catch (IOException ex) {
			try {
				return file.getParent().toRealPath().resolve(file.getFileName());
			}
			catch (IOException | RuntimeException gone) {
				return null;
			}
		}
	}

}
