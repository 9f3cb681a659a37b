package dev.agentmiddleware.sample.workspace;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the sandboxed file workspace.
 *
 * @param root the directory the file tools work in; created at startup if it does not
 * exist
 */
@ConfigurationProperties("sample.workspace")
public record WorkspaceProperties(@DefaultValue("workspace") Path root) {

}
