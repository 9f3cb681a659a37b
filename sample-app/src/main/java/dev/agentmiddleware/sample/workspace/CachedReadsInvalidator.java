package dev.agentmiddleware.sample.workspace;

import java.nio.file.Path;

import dev.agentmiddleware.cache.ToolResultCache;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Keeps the cache of the read-only file tools honest: when {@code write_file} or {@code delete_file} changes a file,
 * the cached {@code read_file} results for that file (whatever path spelling they were read with, in every session)
 * and every cached {@code list_files} result are dropped. Shows how an application invalidates cached tool results.
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
		this.cache.ifAvailable((cache) -> {
			cache.invalidate("read_file", (arguments) -> refersTo(arguments.get("path"), file));
			cache.invalidate("list_files");
		});
	}

	private boolean refersTo(Object path, Path file) {
		try {
			return (path instanceof String relative) && this.workspace.resolve(relative).equals(file);
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

}
