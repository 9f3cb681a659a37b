package dev.agentmiddleware.testsupport;

import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The condition behind {@link RequiresService}.
 */
final class RequiredServiceCondition implements ExecutionCondition {

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		List<String> missing = new ArrayList<>();
		context.getElement().ifPresent((element) -> collect(element, missing));
		if (missing.isEmpty()) {
			return ConditionEvaluationResult.enabled("required services are available");
		}
		String reason = String.join("; ", missing);
		if (TestService.required()) {
			throw new ExtensionConfigurationException(
					TestService.REQUIRE_SERVICES_VARIABLE + "=true but a required service is missing: " + reason);
		}
		return ConditionEvaluationResult.disabled(reason);
	}

	private static void collect(AnnotatedElement element, List<String> missing) {
		RequiresService annotation = element.getAnnotation(RequiresService.class);
		if (annotation == null) {
			return;
		}
		for (TestService service : annotation.value()) {
			Optional<String> reason = service.unavailableReason();
			reason.ifPresent(missing::add);
		}
	}

}
