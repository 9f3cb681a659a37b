package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Parameter;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.Map;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the Bean Validation constraints of a tool method's parameter into its JSON
 * schema, with the keywords the victools {@code jsonschema-module-jakarta-validation}
 * module uses for fields (it only sees fields and getters, so the top-level parameters
 * are done here): {@code @Min}/{@code @Max}/{@code @DecimalMin}/{@code @DecimalMax}/
 * {@code @Positive}/{@code @PositiveOrZero}/{@code @Negative}/{@code @NegativeOrZero}
 * become {@code minimum}, {@code maximum}, {@code exclusiveMinimum},
 * {@code exclusiveMaximum}; {@code @Size} and {@code @NotEmpty} become
 * {@code minLength}/{@code maxLength}, {@code minItems}/{@code maxItems} or
 * {@code minProperties}/ {@code maxProperties} by type; {@code @NotBlank}
 * {@code minLength: 1}; {@code @Pattern} {@code pattern}; {@code @Email}
 * {@code format: email}. Only loaded when Bean Validation is on the class path.
 */
final class ParameterConstraintSchema {

	private ParameterConstraintSchema() {
	}

	/**
	 * Whether the parameter must be given: it carries {@code @NotNull}, {@code @NotBlank}
	 * or {@code @NotEmpty}.
	 */
	static boolean isRequired(Parameter parameter) {
		return parameter.isAnnotationPresent(NotNull.class) || parameter.isAnnotationPresent(NotBlank.class)
				|| parameter.isAnnotationPresent(NotEmpty.class);
	}

	static void apply(Parameter parameter, Class<?> valueType, ObjectNode schema) {
		Kind kind = Kind.of(valueType);
		Min min = parameter.getAnnotation(Min.class);
		if (min != null) {
			schema.put("minimum", min.value());
		}
		Max max = parameter.getAnnotation(Max.class);
		if (max != null) {
			schema.put("maximum", max.value());
		}
		DecimalMin decimalMin = parameter.getAnnotation(DecimalMin.class);
		if (decimalMin != null) {
			schema.put(decimalMin.inclusive() ? "minimum" : "exclusiveMinimum", new BigDecimal(decimalMin.value()));
		}
		DecimalMax decimalMax = parameter.getAnnotation(DecimalMax.class);
		if (decimalMax != null) {
			schema.put(decimalMax.inclusive() ? "maximum" : "exclusiveMaximum", new BigDecimal(decimalMax.value()));
		}
		if (parameter.isAnnotationPresent(Positive.class)) {
			schema.put("exclusiveMinimum", 0);
		}
		if (parameter.isAnnotationPresent(PositiveOrZero.class)) {
			schema.put("minimum", 0);
		}
		if (parameter.isAnnotationPresent(Negative.class)) {
			schema.put("exclusiveMaximum", 0);
		}
		if (parameter.isAnnotationPresent(NegativeOrZero.class)) {
			schema.put("maximum", 0);
		}
		if (parameter.isAnnotationPresent(NotEmpty.class) || parameter.isAnnotationPresent(NotBlank.class)) {
			kind.minimum(schema, 1);
		}
		Size size = parameter.getAnnotation(Size.class);
		if (size != null) {
			if (size.min() > 0) {
				kind.minimum(schema, size.min());
			}
			if (size.max() < Integer.MAX_VALUE) {
				kind.maximum(schema, size.max());
			}
		}
		Pattern pattern = parameter.getAnnotation(Pattern.class);
		if (pattern != null) {
			schema.put("pattern", pattern.regexp());
		}
		if (parameter.isAnnotationPresent(Email.class)) {
			schema.put("format", "email");
		}
	}

	/** What a size means for a type: characters, elements or entries. */
	private enum Kind {

		STRING("minLength", "maxLength"), ARRAY("minItems", "maxItems"), OBJECT("minProperties", "maxProperties");

		private final String minimum;

		private final String maximum;

		Kind(String minimum, String maximum) {
			this.minimum = minimum;
			this.maximum = maximum;
		}

		static Kind of(Class<?> type) {
			if (type.isArray() || Collection.class.isAssignableFrom(type)) {
				return ARRAY;
			}
			if (Map.class.isAssignableFrom(type)) {
				return OBJECT;
			}
			return STRING;
		}

		void minimum(ObjectNode schema, int value) {
			// The larger of @NotEmpty's 1 and @Size's min wins
			if (!schema.has(this.minimum) || schema.get(this.minimum).asInt() < value) {
				schema.put(this.minimum, value);
			}
		}

		void maximum(ObjectNode schema, int value) {
			schema.put(this.maximum, value);
		}

	}

}
