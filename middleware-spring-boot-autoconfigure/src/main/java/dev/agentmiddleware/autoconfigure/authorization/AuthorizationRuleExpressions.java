package dev.agentmiddleware.autoconfigure.authorization;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import dev.agentmiddleware.authorization.AuthorizationRule;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolInvocation;
import dev.agentmiddleware.tool.ToolPrincipal;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.MethodExecutor;
import org.springframework.expression.MethodResolver;
import org.springframework.expression.ParseException;
import org.springframework.expression.PropertyAccessor;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.CompoundExpression;
import org.springframework.expression.spel.ast.ConstructorReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.Indexer;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.OpDec;
import org.springframework.expression.spel.ast.OpInc;
import org.springframework.expression.spel.ast.Projection;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.ast.Selection;
import org.springframework.expression.spel.ast.StringLiteral;
import org.springframework.expression.spel.ast.TypeReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.DataBindingMethodResolver;
import org.springframework.expression.spel.support.DataBindingPropertyAccessor;
import org.springframework.expression.spel.support.MapAccessor;
import org.springframework.expression.spel.support.SimpleEvaluationContext;
import org.springframework.util.ReflectionUtils;

/**
 * The configured authorization rules as SpEL: each expression is parsed and checked once,
 * at startup, and evaluated per call in a restricted context. An expression sees three
 * variables: {@code #args} (the bound arguments by parameter name, read-only),
 * {@code #principal} ({@code name}, {@code authorities}, {@code authenticated}) and
 * {@code #source} ({@code JAVA}, {@code SPRING_AI}, {@code MCP} or {@code OTHER}, as
 * text).
 *
 * <p>
 * What an expression may do is checked at startup and again by the context it runs in: no
 * type references ({@code T(...)}), constructors, bean references, functions or
 * assignments, no variables but those three, properties read through getters, map keys
 * and record components only, and methods called on strings and, read-only
 * ({@code contains}, {@code containsKey}, {@code size}, {@code isEmpty}, ...), on
 * collections and maps only. The arguments are values the expression reads, never text it
 * parses: an argument that looks like an expression is a string like any other.
 */
final class AuthorizationRuleExpressions {

	/** The variables an expression may read. */
	static final Set<String> VARIABLES = Set.of("args", "principal", "source");

	private static final Set<String> PRINCIPAL_PROPERTIES = Set.of("name", "authorities", "authenticated");

	private static final SpelExpressionParser parser = new SpelExpressionParser();

	private static final JsonMapper jsonMapper = JsonMapper.builder().build();

	private static final PropertyAccessor[] ACCESSORS = { new MapAccessor(false), new RecordAccessor(),
			DataBindingPropertyAccessor.forReadOnlyAccess() };

	private static final MethodResolver METHODS = new ReadOnlyMethods();

	private AuthorizationRuleExpressions() {
	}

	/**
	 * Parses and checks an expression without a tool: what can be checked as soon as the
	 * properties are bound.
	 * @param property the expression's property, named in the failure
	 * @param expression the expression
	 * @return what the expression reads
	 * @throws InvalidToolConfigurationException if it does not parse or does what rules
	 * may not
	 */
	static Parsed parse(String property, String expression) {
		Expression parsed;
		try {
			parsed = parser.parseExpression(expression);
		}
		catch (ParseException ex) {
			throw invalid(property, expression,
					"it is no valid SpEL expression: " + ex.getSimpleMessage() + " at position " + ex.getPosition());
		}
		Set<String> arguments = new LinkedHashSet<>();
		boolean[] readsArguments = { false };
		check(((SpelExpression) parsed).getAST(), false, property, expression, arguments, readsArguments);
		return new Parsed(parsed, arguments, readsArguments[0]);
	}

	/**
	 * Compiles one configured rule for one tool: the expression is checked, and every
	 * argument it names must be a parameter of the tool.
	 * @param property the rule's property, such as
	 * {@code agent.middleware.authorization.tools.transfer.deny-when[0]}
	 * @param effect whether the expression allows or denies
	 * @param expression the expression
	 * @param reason what the model is told when the rule refuses a call
	 * @param tool the tool
	 * @return the rule
	 * @throws InvalidToolConfigurationException naming the expression's property
	 */
	static AuthorizationRule compile(String property, AuthorizationRule.Effect effect, String expression, String reason,
			ToolDescriptor tool) {
		String expressionProperty = property + ".expression";
		Parsed parsed = parse(expressionProperty, expression);
		Set<String> parameters = parameters(tool);
		for (String argument : parsed.arguments()) {
			if (!parameters.contains(argument)) {
				throw invalid(expressionProperty, expression,
						"tool '" + tool.name() + "' has no parameter '" + argument + "'",
						"Name one of its parameters ("
								+ (parameters.isEmpty() ? "it has none" : String.join(", ", parameters)) + ") in '"
								+ expressionProperty + "'.");
			}
		}
		return new AuthorizationRule(property, effect, new Condition(parsed.expression()), reason,
				parsed.readsArguments());
	}

	// The parameter names of a tool: the properties of its input schema.
	private static Set<String> parameters(ToolDescriptor tool) {
		Set<String> names = new LinkedHashSet<>();
		try {
			JsonNode properties = jsonMapper.readTree(tool.inputSchema()).path("properties");
			if (properties.isObject()) {
				properties.properties().forEach((entry) -> names.add(entry.getKey()));
			}
		}
		catch (JacksonException ex) {
			// A schema that is not JSON names no parameter: any argument a rule names is
			// unknown
		}
		return names;
	}

	private static void check(SpelNode node, boolean inSelection, String property, String expression,
			Set<String> arguments, boolean[] readsArguments) {
		if (node instanceof TypeReference || node instanceof ConstructorReference || node instanceof BeanReference
				|| node instanceof FunctionReference || node instanceof Assign || node instanceof OpInc
				|| node instanceof OpDec) {
			throw invalid(property, expression, "'" + node.toStringAST() + "' is not allowed in a rule (no type "
					+ "references, constructors, bean references, functions or assignments)");
		}
		if (node instanceof VariableReference) {
			String name = node.toStringAST().substring(1);
			if (!VARIABLES.contains(name) && !name.equals("this") && !name.equals("root")) {
				throw invalid(property, expression, "'#" + name + "' is no variable of a rule",
						"Use #args, #principal or #source in '" + property + "'.");
			}
			readsArguments[0] |= name.equals("args");
		}
		else if (!inSelection && (node instanceof PropertyOrFieldReference || node instanceof MethodReference)) {
			// Reached only when it does not follow a variable in a compound expression:
			// it would read the empty root
			String name = node.toStringAST();
			throw invalid(property, expression,
					"'" + name + "' reads nothing: a rule reads #args, #principal and " + "#source",
					"Write #args." + name + " (or #principal." + name + ") in '" + property + "'.");
		}
		if (node instanceof CompoundExpression) {
			checkCompound(node, inSelection, property, expression, arguments, readsArguments);
			return;
		}
		boolean selection = inSelection || node instanceof Selection || node instanceof Projection;
		for (int i = 0; i < node.getChildCount(); i++) {
			check(node.getChild(i), selection, property, expression, arguments, readsArguments);
		}
	}

	private static void checkCompound(SpelNode compound, boolean inSelection, String property, String expression,
			Set<String> arguments, boolean[] readsArguments) {
		SpelNode first = compound.getChild(0);
		check(first, inSelection, property, expression, arguments, readsArguments);
		String variable = (first instanceof VariableReference) ? first.toStringAST().substring(1) : null;
		if (compound.getChildCount() > 1 && variable != null) {
			SpelNode second = compound.getChild(1);
			String key = key(second);
			if (variable.equals("args") && key != null) {
				arguments.add(key);
			}
			if (variable.equals("principal") && key != null && !PRINCIPAL_PROPERTIES.contains(key)) {
				throw invalid(property, expression, "#principal has no '" + key + "'",
						"Use #principal.name, #principal.authorities or #principal.authenticated in '" + property
								+ "'.");
			}
		}
		for (int i = 1; i < compound.getChildCount(); i++) {
			// What follows the first element reads from it, not from the root
			SpelNode next = compound.getChild(i);
			for (int j = 0; j < next.getChildCount(); j++) {
				check(next.getChild(j), inSelection || next instanceof Selection || next instanceof Projection,
						property, expression, arguments, readsArguments);
			}
		}
	}

	// The property or key a node reads: 'x' of '.x' and of "['x']"
	private static @Nullable String key(SpelNode node) {
		if (node instanceof PropertyOrFieldReference reference) {
			return reference.getName();
		}
		if (node instanceof Indexer && node.getChildCount() == 1 && node.getChild(0) instanceof StringLiteral literal) {
			return String.valueOf(literal.getLiteralValue().getValue());
		}
		return null;
	}

	private static InvalidToolConfigurationException invalid(String property, String expression, String reason) {
		return invalid(property, expression, reason, "Correct the expression in '" + property + "'.");
	}

	private static InvalidToolConfigurationException invalid(String property, String expression, String reason,
			String action) {
		return new InvalidToolConfigurationException(property, expression, reason, action);
	}

	/**
	 * A parsed expression.
	 *
	 * @param expression the expression
	 * @param arguments the argument names it reads literally ({@code #args.x},
	 * {@code #args['x']})
	 * @param readsArguments whether it reads {@code #args} at all
	 */
	record Parsed(Expression expression, Set<String> arguments, boolean readsArguments) {
	}

	/**
	 * One expression as a rule's condition: evaluated per call in a new restricted
	 * context.
	 */
	private static final class Condition implements Predicate<ToolInvocation> {

		private final Expression expression;

		Condition(Expression expression) {
			this.expression = expression;
		}

		@Override
		public boolean test(ToolInvocation call) {
			SimpleEvaluationContext context = SimpleEvaluationContext.forPropertyAccessors(ACCESSORS)
				.withMethodResolvers(METHODS)
				.withAssignmentDisabled()
				.build();
			context.setVariable("args", call.arguments());
			context.setVariable("principal", principal(call.principal()));
			context.setVariable("source", call.source().name());
			Boolean holds = this.expression.getValue(context, Boolean.class);
			if (holds == null) {
				throw new IllegalStateException("the expression gave no boolean");
			}
			return holds;
		}

		private static Map<String, @Nullable Object> principal(@Nullable ToolPrincipal principal) {
			Map<String, @Nullable Object> view = new LinkedHashMap<>();
			view.put("name", (principal != null) ? principal.name() : null);
			view.put("authorities", (principal != null) ? principal.authorities() : Set.of());
			view.put("authenticated", principal != null);
			return Collections.unmodifiableMap(view);
		}

		@Override
		public String toString() {
			return this.expression.getExpressionString();
		}

	}

	/**
	 * Methods an expression may call: any on a string (immutable), the reading ones on
	 * collections and maps.
	 */
	private static final class ReadOnlyMethods implements MethodResolver {

		private static final Set<String> COLLECTION = Set.of("contains", "containsAll", "size", "isEmpty", "get",
				"indexOf");

		private static final Set<String> MAP = Set.of("containsKey", "containsValue", "get", "getOrDefault", "size",
				"isEmpty");

		private final DataBindingMethodResolver delegate = DataBindingMethodResolver.forInstanceMethodInvocation();

		@Override
		public @Nullable MethodExecutor resolve(EvaluationContext context, Object target, String name,
				List<TypeDescriptor> argumentTypes) throws AccessException {
			boolean allowed = target instanceof String || (target instanceof Collection && COLLECTION.contains(name))
					|| (target instanceof Map && MAP.contains(name));
			return allowed ? this.delegate.resolve(context, target, name, argumentTypes) : null;
		}

	}

	/**
	 * Reads the components of a record argument ({@code #args.order.amount}), which have
	 * no getters.
	 */
	private static final class RecordAccessor implements PropertyAccessor {

		@Override
		public Class<?>[] getSpecificTargetClasses() {
			return new Class<?>[] { Record.class };
		}

		@Override
		public boolean canRead(EvaluationContext context, @Nullable Object target, String name) {
			return accessor(target, name) != null;
		}

		@Override
		public TypedValue read(EvaluationContext context, @Nullable Object target, String name) throws AccessException {
			Method accessor = accessor(target, name);
			if (accessor == null) {
				throw new AccessException("no record component '" + name + "'");
			}
			ReflectionUtils.makeAccessible(accessor);
			return new TypedValue(ReflectionUtils.invokeMethod(accessor, target));
		}

		@Override
		public boolean canWrite(EvaluationContext context, @Nullable Object target, String name) {
			return false;
		}

		@Override
		public void write(EvaluationContext context, @Nullable Object target, String name, @Nullable Object newValue)
				throws AccessException {
			throw new AccessException("rules do not write");
		}

		private static @Nullable Method accessor(@Nullable Object target, String name) {
			if (target instanceof Record) {
				for (RecordComponent component : target.getClass().getRecordComponents()) {
					if (component.getName().equals(name)) {
						return component.getAccessor();
					}
				}
			}
			return null;
		}

	}

}
