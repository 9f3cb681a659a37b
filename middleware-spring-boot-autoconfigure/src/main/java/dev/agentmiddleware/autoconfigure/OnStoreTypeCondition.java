package dev.agentmiddleware.autoconfigure;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

import dev.agentmiddleware.autoconfigure.ConditionalOnStoreType.StoreType;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

// The condition behind @ConditionalOnStoreType: reads '<prefix>.store.type' (else its deprecated property) as Boot
// binds an enum (any case, dashes or underscores), so that the condition and the bound properties never disagree.
final class OnStoreTypeCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnStoreType.class.getName());
		String property = attributes.get("prefix") + ".store.type";
		StoreType[] accepted = (StoreType[]) attributes.get("value");
		String deprecated = (String) attributes.get("deprecatedProperty");
		String raw = context.getEnvironment().getProperty(property);
		if (raw == null && !deprecated.isEmpty() && context.getEnvironment().containsProperty(deprecated)) {
			property = deprecated;
			raw = context.getEnvironment().getProperty(deprecated);
		}
		raw = (raw != null) ? raw : StoreType.AUTO.name();
		String normal = raw.trim().replace('-', '_');
		StoreType type = Arrays.stream(StoreType.values())
			.filter((candidate) -> candidate.name().equalsIgnoreCase(normal))
			.findFirst()
			.orElse(null);
		if (type == null) {
			return ConditionOutcome.noMatch(property + " '" + raw + "' is not a store type");
		}
		boolean matches = Arrays.asList(accepted).contains(type);
		String message = property + " is " + type.name().toLowerCase(Locale.ROOT);
		return matches ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
	}

}
