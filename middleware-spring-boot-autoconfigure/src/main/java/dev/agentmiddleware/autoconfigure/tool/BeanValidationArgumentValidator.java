package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;

import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.tool.ToolProgress;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.validation.Validator;
import jakarta.validation.metadata.MethodDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * Checks Bean Validation constraints ({@code @NotBlank}, {@code @Size}, {@code @Valid}
 * records, ...) declared on the parameters of {@code @AgentTool} methods. A violation
 * becomes an {@link InvalidToolArgumentsException} naming the parameter and the
 * constraint's message, never the rejected value. <pre>{@code
 * &#64;AgentTool(description = "Current weather for a city", safety = SafetyLevel.SAFE, readOnly = true)
 * public Weather getWeather(@NotBlank @Size(max = 80) String city) { ... }
 * }</pre>
 */
final class BeanValidationArgumentValidator implements ToolArgumentValidator {

	private final Validator validator;

	/**
	 * Creates the validator.
	 * @param validator the Bean Validation validator of the context
	 */
	BeanValidationArgumentValidator(Validator validator) {
		this.validator = validator;
	}

	@Override
	public void validate(RegisteredTool tool, Object target, Map<String, @Nullable Object> arguments) {
		Method method = tool.method();
		if (method == null) {
			return;
		}
		ToolProgressParameter progress = tool.progressParameter();
		@Nullable Object[] values = progress.methodValues(arguments.values().toArray(), ToolProgress.NONE, null);
		Set<ConstraintViolation<Object>> violations = this.validator.forExecutables()
			.validateParameters(target, method, values);
		if (violations.isEmpty()) {
			return;
		}
		ConstraintViolation<Object> first = violations.stream()
			.min(Comparator.comparing((violation) -> violation.getPropertyPath().toString()))
			.orElseThrow();
		String[] names = arguments.keySet().toArray(String[]::new);
		throw new InvalidToolArgumentsException(tool.name(), parameterName(first.getPropertyPath(), names, progress),
				describe(first.getPropertyPath()) + first.getMessage());
	}

	@Override
	public boolean checks(RegisteredTool tool, Object target) {
		Method method = tool.method();
		if (method == null) {
			return false;
		}
		try {
			MethodDescriptor constraints = this.validator.getConstraintsForClass(target.getClass())
				.getConstraintsForMethod(method.getName(), method.getParameterTypes());
			return constraints != null && constraints.hasConstrainedParameters();
		}
		catch (RuntimeException ex) {
			return true; // metadata it cannot read: check every call, as validate would
		}
	}

	private static @Nullable String parameterName(Path path, String[] names, ToolProgressParameter progress) {
		for (Path.Node node : path) {
			if (node.getKind() == ElementKind.PARAMETER) {
				int index = node.as(Path.ParameterNode.class).getParameterIndex();
				// The method's parameters count the progress and the client, the tool's
				// arguments do not
				index = progress.argumentIndex(index);
				return (index < names.length) ? names[index] : node.getName();
			}
		}
		return null;
	}

	private static String describe(Path path) {
		StringBuilder inner = new StringBuilder();
		boolean afterParameter = false;
		for (Path.Node node : path) {
			if (afterParameter && node.getName() != null) {
				inner.append((inner.length() > 0) ? "." : "").append(node.getName());
			}
			afterParameter |= node.getKind() == ElementKind.PARAMETER;
		}
		return (inner.length() > 0) ? "at '" + inner + "': " : "";
	}

}
