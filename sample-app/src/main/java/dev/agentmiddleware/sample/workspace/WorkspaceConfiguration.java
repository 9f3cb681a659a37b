package dev.agentmiddleware.sample.workspace;

import java.io.IOException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Creates the {@link Workspace} from {@link WorkspaceProperties}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WorkspaceProperties.class)
class WorkspaceConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(WorkspaceConfiguration.class);

	@Bean
	Workspace workspace(WorkspaceProperties properties) throws IOException {
		Workspace workspace = new Workspace(properties.root());
		logger.info("File tools work in {}", workspace.root());
		return workspace;
	}

}
