package dev.agentmiddleware.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

/**
 * Marks a bean method as a tool an AI agent may call. Every call of it, from Java, from a
 * Spring AI {@code ChatClient} or from an MCP client, runs through the tool's middleware
 * chain exactly once.
 *
 * <p>
 * The JSON schema of the tool's arguments is generated from the method's parameters
 * (describe them with {@link AgentToolParam}). The bean is proxied with a class-based
 * proxy, so the method must be public and neither the method nor its class final.
 * <pre>{@code
 * &#64;Component
 * public class WeatherTools {
 *
 *

&#64;AgentTool(description = "Current weather for a city", safety = SafetyLevel.SAFE, readOnly = true)
 *     public Weather getWeather(@AgentToolParam(description = "City name, e.g. Lisbon") String city) {
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>
 * It also works as a meta-annotation, so a team can name its kinds of tools; attributes
 * of the composed annotation override {@code @AgentTool}'s through {@code @AliasFor}:
 * <pre>{@code
 * &#64;Target(ElementType.METHOD)
 * &#64;Retention(RetentionPolicy.RUNTIME)
 * &#64;AgentTool(safety = SafetyLevel.SAFE, readOnly = true)
 * public @interface LookupTool {
 *
 *
&#64;AliasFor(annotation = AgentTool.class)
 *     String description() default "";
 * }
 * }</pre>
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface AgentTool {

	/**
	 * The tool name; defaults to the method name in snake case ({@code getWeather}
	 * becomes {@code get_weather}).
	 * @return the tool name, or empty for the default
	 */
	String name() default "";

	/**
	 * What the tool does, for the model; defaults to the tool name with spaces.
	 * @return the description
	 */
	String description() default "";

	/**
	 * How much harm the tool can do. A tool that does not say counts as
	 * {@link SafetyLevel#DANGEROUS}.
	 * @return the safety level
	 */
	SafetyLevel safety() default SafetyLevel.DANGEROUS;

	/**
	 * Whether the tool only reads; read-only tools are cached and may be retried.
	 * @return whether the tool only reads
	 */
	boolean readOnly() default false;

	/**
	 * Whether repeating a call with the same arguments is safe; idempotent tools may be
	 * retried.
	 * @return whether the tool is idempotent
	 */
	boolean idempotent() default false;

	/**
	 * Free-form labels that middleware match on, such as {@code browser}.
	 * @return the tags
	 */
	String[] tags() default {};

	/**
	 * Whether the result goes straight to the user instead of back to the model.
	 * @return whether to return directly
	 */
	boolean returnDirect() default false;

	/**
	 * A short human-readable name for user interfaces, such as {@code Weather forecast};
	 * published as the MCP tool's {@code title}.
	 * @return the title, or empty for none
	 */
	String title() default "";

	/**
	 * Whether the tool reaches beyond the application: the web, other systems, the
	 * outside world. Published as MCP's {@code openWorldHint}; a tool that works only on
	 * the application's own data says {@code false}.
	 * @return whether the tool interacts with an open world
	 */
	boolean openWorld() default true;

	/**
	 * Authorities a caller must hold, all of them, to call the tool, such as
	 * {@code SCOPE_files.write} (an OAuth scope) or {@code ROLE_ADMIN}: the names of
	 * Spring Security's granted authorities. A caller without them, or not authenticated,
	 * is refused with the outcome {@code forbidden} before anyone is asked to approve the
	 * call, and an MCP client does not see the tool in its {@code tools/list}.
	 * Configuration under {@code agent.middleware.authorization} may add authorities,
	 * never remove these.
	 * @return the required authorities, or empty for none
	 */
	String[] authorities() default {};

	/**
	 * Icons a client may show beside the tool, published as the MCP tool's {@code icons};
	 * configuration under {@code agent.middleware.mcp.tools.<tool-name>.icons} replaces
	 * them. <pre>{@code
	 * &#64;AgentTool(icons = @AgentToolIcon(src = "https://example.com/icons/weather.svg", sizes = "any"))
	 * }</pre>
	 * @return the icons, or empty for none
	 */
	AgentToolIcon[] icons() default {};

	/**
	 * Where the JSON schema of the tool's arguments is, when the tool declares it instead
	 * of having it generated from the method's parameters: a resource location such as
	 * {@code classpath:schemas/contact.json}. The schema is published as written (JSON
	 * Schema 2020-12: {@code $defs}, {@code $ref}, {@code allOf}, {@code if}/{@code then}
	 * and the rest) and checked when the application starts: each of its properties must
	 * be a parameter of the method, and each parameter the method requires must be one of
	 * its properties and listed under its {@code required}; otherwise startup fails
	 * naming the tool, the parameter and what was expected. Arguments are still bound to
	 * the parameters' types, and a property the schema requires must be given.
	 * <pre>{@code
	 * &#64;AgentTool(description = "Saves a contact", inputSchema = "classpath:schemas/contact.json")
	 * public String saveContact(String name, @AgentToolParam(required = false) Address address) {
	 *     ...
	 * }
	 * }</pre>
	 * @return the schema's location, or empty to generate the schema
	 */
	String inputSchema() default "";

	/**
	 * Whether an MCP client may run the tool as a task (the MCP {@code 2026-07-28} tasks
	 * extension, {@code io.modelcontextprotocol/tasks}), published as the MCP tool's
	 * {@code execution.taskSupport}. A call of a tool that supports tasks, from a client
	 * that declared the extension, is answered at once with the task; the call runs in
	 * the background through the same chain, and the client polls it with
	 * {@code tasks/get}. A client that did not declare the extension calls an
	 * {@link TaskSupport#OPTIONAL optional} tool as any other, and is refused a
	 * {@link TaskSupport#REQUIRED required} one. Other MCP revisions and other callers
	 * (Java, Spring AI) ignore it. <pre>{@code
	 * &#64;AgentTool(description = "Builds the monthly report", taskSupport = TaskSupport.OPTIONAL)
	 * public Report buildReport(String month) { ... }
	 * }</pre>
	 * @return whether the tool runs as a task, {@link TaskSupport#FORBIDDEN} by default
	 * @see #inputBeforeTask()
	 */
	TaskSupport taskSupport() default TaskSupport.FORBIDDEN;

	/**
	 * Whether a call that runs as a task ({@link #taskSupport()}) gathers what its tool
	 * asks of the client's user or model ({@link dev.agentmiddleware.tool.ToolClient})
	 * before the task is created, by {@code input_required} round trips, as the MCP tasks
	 * extension's composition with multi round-trip requests describes. Such a call's
	 * rounds answer {@code input_required} (no task) while the tool asks what the client
	 * has not answered yet; the round in which the tool takes the last answer the client
	 * gave answers the task, and the tool goes on in the task with those answers. A
	 * question the tool asks after that point parks the task in {@code input_required}
	 * (answered by {@code tasks/update}); a round with no answer for the tool to take (a
	 * first round in which it asks nothing) runs it to its end and answers the task
	 * completed. Without it (the default) the call answers the task at once, and each
	 * question parks the task. The tool's code is the same either way: ask first, then
	 * work. <pre>{@code
	 * &#64;AgentTool(description = "Deploys a release", taskSupport = TaskSupport.REQUIRED, inputBeforeTask = true)
	 * public String deploy(String release, ToolClient client) {
	 *     ElicitationResult window = client.elicit(askForTheWindow);   // a round trip before the task
	 *     return deployer.deploy(release, window.content());            // the task
	 * }
	 * }</pre>
	 * @return whether the call asks its questions before it becomes a task
	 */
	boolean inputBeforeTask() default false;

	/**
	 * Whether a tool runs as an MCP task, named as MCP's {@code execution.taskSupport}.
	 */
	enum TaskSupport {

		/** The tool never runs as a task (MCP's default). */
		FORBIDDEN,

		/**
		 * A client that declared the tasks extension gets a task; any other calls the
		 * tool as usual.
		 */
		OPTIONAL,

		/**
		 * The tool runs only as a task: a client that did not declare the tasks extension
		 * is refused ({@code -32021}) before the tool runs.
		 */
		REQUIRED

	}

}
