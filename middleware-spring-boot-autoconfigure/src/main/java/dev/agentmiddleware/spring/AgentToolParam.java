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

}
