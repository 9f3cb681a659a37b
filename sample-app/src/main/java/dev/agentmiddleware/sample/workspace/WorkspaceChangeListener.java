package dev.agentmiddleware.sample.workspace;

import java.nio.file.Path;

/**
 * Told when a workspace tool changed or deleted a file.
 */
@FunctionalInterface
public interface WorkspaceChangeListener {

	/** Does nothing. */
	WorkspaceChangeListener NONE = (file) -> {
	};

	/**
	 * Called after a file was written or deleted.
	 * @param file the file, resolved inside the workspace
	 */
	void changed(Path file);

}
