package dev.agentmiddleware.readme;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import dev.agentmiddleware.autoconfigure.approval.web.ApprovalWebAutoConfiguration;
import dev.agentmiddleware.autoconfigure.jdbc.JdbcStoresAutoConfiguration;
import dev.agentmiddleware.autoconfigure.mcp.AgentMcpServerAutoConfiguration;
import dev.agentmiddleware.autoconfigure.redis.RedisRateLimiterStoreAutoConfiguration;
import dev.agentmiddleware.autoconfigure.springai.AgentChatClientAutoConfiguration;
import dev.agentmiddleware.autoconfigure.tool.AgentToolAutoConfiguration;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.test.RecordingToolCallObserver;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public surface of every published module with classes, counted honestly, against
 * the README's module table: public top-level types plus public nested types (a nested
 * type counts when it and every type around it are public), and of them those in an
 * {@code internal} package, which are public for the modules only. The classes are read
 * from each module's compiled output, as the build made it. When the counts change, the
 * failure prints the column to paste into the README.
 */
class ReadmePublicSurfaceTests {

	@Test
	void theModuleTableStatesThePublicTypesOfEachPublishedModule() {
		Map<String, String> counted = new LinkedHashMap<>();
		publishedModules().forEach((module, marker) -> counted.put(module, count(marker).toString()));
		Map<String, String> documented = new LinkedHashMap<>();
		for (Readme.Row row : Readme.documentedTable("module", "what it holds", "depends on")) {
			documented.put(row.cells().get(0).replace("`", ""), row.cells().get(row.cells().size() - 1));
		}
		List<String> stale = new ArrayList<>();
		counted.forEach((module, count) -> {
			if (!count.equals(documented.get(module))) {
				stale.add("| `" + module + "` | ... | " + count + " |  (README: " + documented.get(module) + ")");
			}
		});
		assertThat(stale).as("README.md's module table, last column, should read:%n%s", String.join("\n", stale))
			.isEmpty();
	}

	// Each published module with classes, by one class it holds (the starters and the BOM
	// hold none)
	private static Map<String, Class<?>> publishedModules() {
		Map<String, Class<?>> modules = new LinkedHashMap<>();
		modules.put("middleware-core", ToolPipeline.class);
		modules.put("middleware-spring-boot-autoconfigure", AgentToolAutoConfiguration.class);
		modules.put("middleware-spring-ai", AgentChatClientAutoConfiguration.class);
		modules.put("middleware-mcp-server", AgentMcpServerAutoConfiguration.class);
		modules.put("middleware-jdbc", JdbcStoresAutoConfiguration.class);
		modules.put("middleware-redis", RedisRateLimiterStoreAutoConfiguration.class);
		modules.put("middleware-approval-web", ApprovalWebAutoConfiguration.class);
		modules.put("middleware-test", RecordingToolCallObserver.class);
		return modules;
	}

	private static Count count(Class<?> marker) {
		Count count = new Count();
		for (JavaClass type : new ClassFileImporter().importLocations(List.of(location(marker)))) {
			if (!isPublicApi(type) || type.getSimpleName().equals("package-info")) {
				continue;
			}
			boolean internal = (type.getPackageName() + ".").contains(".internal.");
			if (type.isTopLevelClass()) {
				count.topLevel++;
				count.internalTopLevel += internal ? 1 : 0;
			}
			else {
				count.nested++;
				count.internalNested += internal ? 1 : 0;
			}
		}
		return count;
	}

	// Public, and for a nested type: a member type (not local or anonymous) of a type
	// that is public API itself
	private static boolean isPublicApi(JavaClass type) {
		if (!type.getModifiers().contains(JavaModifier.PUBLIC) || type.isAnonymousClass() || type.isLocalClass()) {
			return false;
		}
		return type.getEnclosingClass().map(ReadmePublicSurfaceTests::isPublicApi).orElse(true);
	}

	// Where a module's classes are: its classes folder in a build up to the test phase,
	// its
	// jar once the module is packaged (a verify of the whole reactor)
	private static Location location(Class<?> marker) {
		try {
			Path path = Path.of(marker.getProtectionDomain().getCodeSource().getLocation().toURI());
			if (Files.isRegularFile(path)) {
				try (JarFile jar = new JarFile(path.toFile())) {
					return Location.of(jar);
				}
			}
			return Location.of(path);
		}
		catch (URISyntaxException | IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static final class Count {

		int topLevel;

		int nested;

		int internalTopLevel;

		int internalNested;

		@Override
		public String toString() {
			return (this.topLevel + " + " + this.nested + " = " + (this.topLevel + this.nested)) + " (internal "
					+ this.internalTopLevel + " + " + this.internalNested + ")";
		}

	}

}
