package dev.agentmiddleware.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class or method only where the named services are available: elsewhere it
 * is skipped with a message saying what is missing and how to get it, and when
 * {@code AGENTMW_TEST_REQUIRE_SERVICES=true} (set by {@code .ci/run}) it fails instead,
 * so CI never passes by skipping. <pre>{@code
 * &#64;RequiresService(TestService.POSTGRES)
 * class JdbcApprovalStorePostgresIntegrationTests { ... }
 * }</pre>
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(RequiredServiceCondition.class)
public @interface RequiresService {

	/**
	 * The services the test needs.
	 * @return the services
	 */
	TestService[] value();

}
