package dev.agentmiddleware.autoconfigure.tool;

/**
 * A {@code @ConfigurationProperties} class under {@code agent.middleware} whose values
 * have limits: it states them once, and every binding of it checks them. An invalid value
 * fails startup through the middleware's failure analysis, which reports the property as
 * the user wrote it, the value, its origin (file and line), what is allowed and, for a
 * near-miss, the closest allowed value. Unknown keys need nothing of the class: every
 * {@code agent.middleware} section refuses them. <pre>{@code
 * &#64;ConfigurationProperties("agent.middleware.widget")
 * public class WidgetProperties implements ValidatedProperties {
 *
 *     private int maxItems = 100;
 *
 *     private Duration timeout = Duration.ofSeconds(5);
 *
 *

&#64;Override
 *     public void validate(PropertyChecks checks) {
 *         checks.atLeast("maxItems", this.maxItems, 1).positive("timeout", this.timeout);
 *     }
 *
 *     // getters and setters
 * }
 * }</pre>
 */
public interface ValidatedProperties {

	/**
	 * Checks the bound values; called once after each binding, with the defaults in place
	 * of what configuration leaves out.
	 * @param checks the checks to run, naming each field by its Java property path
	 * ({@code maxItems}, {@code store.pollInterval})
	 */
	void validate(PropertyChecks checks);

}
