package dev.agentmiddleware.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

/**
 * Describes a parameter of an {@link AgentTool} method in the tool's JSON schema.
 * <pre>{@code
 * &#64;AgentTool(description = "Reads a file of the workspace", safety = SafetyLevel.SAFE, readOnly = true)
 * public String readFile(@AgentToolParam(description = "Path relative to the workspace root") String path,
 *

&#64;AgentToolParam(description = "Largest number of characters to return", required = false) Integer limit) {
 *     ...
 * }
 * }</pre>
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface AgentToolParam {

	/**
	 * What the parameter means, for the model.
	 * @return the description
	 */
	String description() default "";

	/**
	 * Whether the model must supply the parameter. Primitive parameters are always
	 * required.
	 * @return whether the parameter is required
	 */
	boolean required() default true;

	/**
	 * The name of an HTTP header that MCP clients of revision {@code 2026-07-28} mirror
	 * the parameter's value into: the tool's input schema marks the parameter with
	 * {@code "x-mcp-header": "<name>"}, a client then sends the header
	 * {@code Mcp-Param-<name>} with each call that gives the parameter (its value as is,
	 * or Base64-encoded as {@code =?base64?...?=}), and the server refuses a call whose
	 * header and body disagree ({@code 400} and {@code -32020}). Lets what stands before
	 * the server (a gateway, a load balancer) route by the value without reading the
	 * body: <pre>{@code
	 * public String forecast(@AgentToolParam(description = "Region to forecast", header = "Region") String region)
	 * }</pre> Only for a parameter whose JSON type is {@code string}, {@code number},
	 * {@code integer} or {@code boolean}; the name is an HTTP token (letters, digits and
	 * {@code !#$%&'*+-.^_`|~}), unique among the tool's headers whatever its case. Empty
	 * (the default) for no header. A tool that declares its input schema
	 * ({@link AgentTool#inputSchema()}) writes {@code x-mcp-header} there instead.
	 * @return the header's name, without the {@code Mcp-Param-} prefix
	 */
	String header() default "";

}
