package dev.agentmiddleware.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.RegisteredTool;
import dev.agentmiddleware.callrecord.ToolCallObservers;
import dev.agentmiddleware.chain.ToolPipeline;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code agentmiddleware} actuator endpoint: every agent tool with its descriptor,
 * its chain (the middleware in order, outermost first) and each feature's effective
 * settings for it, the observer tier's health, and the global sections of the features
 * ({@link AgentMiddlewareEndpointContributor}), such as learning statistics.
 *
 * <p>
 * {@code GET /actuator/agentmiddleware} returns the overview, {@code GET
 * /actuator/agentmiddleware/{tool}} one tool (404 when unknown), {@code GET
 * /actuator/agentmiddleware/threads/{id}} and {@code GET
 * /actuator/agentmiddleware/principals/{name}} what the features know of one thread or
 * principal (such as what is left of its budgets; 404 when none knows anything). Expose
 * it like any endpoint, e.g.
 * {@code management.endpoints.web.exposure.include=health,agentmiddleware}. It shows no
 * argument value, result or secret: descriptors and chains are static, and contributors
 * only return configuration, counts and normalised text.
 */
@Endpoint(id = "agentmiddleware")
final class AgentMiddlewareEndpoint {

	private final AgentToolRegistry registry;

	private final @Nullable ToolCallObservers observers;

	private final List<AgentMiddlewareEndpointContributor> contributors;

	/**
	 * Creates the endpoint.
	 * @param registry the tools
	 * @param observers the observer tier, or {@code null} when there is none
	 * @param contributors the features' sections, in order
	 * @throws IllegalStateException if two contributors have the same name
	 */
	public AgentMiddlewareEndpoint(AgentToolRegistry registry, @Nullable ToolCallObservers observers,
			List<AgentMiddlewareEndpointContributor> contributors) {
		this.registry = Objects.requireNonNull(registry, "registry");
		this.observers = observers;
		this.contributors = List.copyOf(contributors);
		Map<String, AgentMiddlewareEndpointContributor> byName = new LinkedHashMap<>();
		for (AgentMiddlewareEndpointContributor contributor : this.contributors) {
			AgentMiddlewareEndpointContributor existing = byName.putIfAbsent(contributor.name(), contributor);
			if (existing != null) {
				throw new IllegalStateException(
						"Two agentmiddleware endpoint contributors are named '" + contributor.name() + "': "
								+ existing.getClass().getName() + " and " + contributor.getClass().getName());
			}
		}
	}

	/**
	 * Every tool, the observer tier and the features' global sections.
	 * @return the overview
	 */
	@ReadOperation
	public AgentMiddlewareDescriptor agentMiddleware() {
		Map<String, AgentToolDescriptor> tools = new LinkedHashMap<>();
		for (RegisteredTool tool : this.registry.tools()) {
			tools.put(tool.name(), describe(tool));
		}
		Map<String, Object> sections = new LinkedHashMap<>();
		for (AgentMiddlewareEndpointContributor contributor : this.contributors) {
			Object section = contributor.describe();
			if (section != null) {
				sections.put(contributor.name(), section);
			}
		}
		ToolCallObservers observers = this.observers;
		ObserversDescriptor observersDescriptor = (observers != null)
				? new ObserversDescriptor(observers.droppedRecords(), observers.observerFailures())
				: new ObserversDescriptor(0, 0);
		return new AgentMiddlewareDescriptor(tools, observersDescriptor, sections);
	}

	/**
	 * One tool, named as it is registered or the way configuration accepts it
	 * ({@code get-stock} and {@code GET_STOCK} name {@code get_stock}).
	 * @param tool the tool name
	 * @return the tool's description, or {@code null} (404 over HTTP) when no tool has
	 * that name
	 */
	@ReadOperation
	public @Nullable AgentToolDescriptor tool(@Selector String tool) {
		return this.registry.find(tool).or(() -> byConfiguredName(tool)).map(this::describe).orElse(null);
	}

	/**
	 * What the features know of one thread or one principal, by contributor name.
	 * @param scope {@value AgentMiddlewareEndpointContributor#THREADS} or
	 * {@value AgentMiddlewareEndpointContributor#PRINCIPALS}
	 * @param id the thread id or the principal's name
	 * @return the contributors' parts, or {@code null} (404 over HTTP) for another scope
	 * or when no contributor has a part
	 */
	@ReadOperation
	public @Nullable Map<String, Object> entry(@Selector String scope, @Selector String id) {
		if (!AgentMiddlewareEndpointContributor.THREADS.equals(scope)
				&& !AgentMiddlewareEndpointContributor.PRINCIPALS.equals(scope)) {
			return null;
		}
		Map<String, Object> parts = new LinkedHashMap<>();
		for (AgentMiddlewareEndpointContributor contributor : this.contributors) {
			Object part = contributor.describe(scope, id);
			if (part != null) {
				parts.put(contributor.name(), part);
			}
		}
		return parts.isEmpty() ? null : parts;
	}

	// The rule of tools.<name> keys (ToolNames.canonical); a name two tools share
	// canonically names neither.
	private Optional<RegisteredTool> byConfiguredName(String name) {
		String canonical = ToolNames.canonical(name);
		List<RegisteredTool> matches = this.registry.tools()
			.stream()
			.filter((candidate) -> ToolNames.canonical(candidate.name()).equals(canonical))
			.toList();
		return (matches.size() == 1) ? Optional.of(matches.get(0)) : Optional.empty();
	}

	private AgentToolDescriptor describe(RegisteredTool tool) {
		ToolDescriptor descriptor = tool.descriptor();
		ToolPipeline pipeline = tool.pipeline();
		Map<String, Object> settings = new LinkedHashMap<>();
		for (AgentMiddlewareEndpointContributor contributor : this.contributors) {
			Object part = contributor.describeTool(tool);
			if (part != null) {
				settings.put(contributor.name(), part);
			}
		}
		List<String> tags = new ArrayList<>(descriptor.tags());
		tags.sort(null);
		return new AgentToolDescriptor(descriptor.name(), descriptor.description(), descriptor.safety(),
				descriptor.readOnly(), descriptor.idempotent(), tags, descriptor.returnDirect(),
				parse(descriptor.inputSchema()), tool.beanName(), pipeline.layers(), pipeline.describe(), settings);
	}

	private static Object parse(String schema) {
		try {
			return JsonMapper.shared().readValue(schema, LinkedHashMap.class);
		}
		catch (JacksonException ex) {
			return schema;
		}
	}

	/**
	 * The endpoint's overview.
	 *
	 * @param tools every tool by name, sorted by name
	 * @param observers the observer tier
	 * @param sections the features' global sections by contributor name
	 */
	public record AgentMiddlewareDescriptor(Map<String, AgentToolDescriptor> tools, ObserversDescriptor observers,
			Map<String, Object> sections) implements OperationResponseBody {

	}

	/**
	 * One tool.
	 *
	 * @param name the tool name
	 * @param description what the tool does
	 * @param safety how much harm it can do
	 * @param readOnly whether it only reads
	 * @param idempotent whether calling it twice with the same arguments is safe
	 * @param tags its tags, sorted
	 * @param returnDirect whether its result goes straight to the user
	 * @param inputSchema the JSON schema of its arguments, parsed (or as text if it is
	 * not valid JSON)
	 * @param bean the bean that declares it
	 * @param chain the layers of its pipeline, outermost first, ending with the tool
	 * itself
	 * @param pipeline the printed pipeline
	 * @param settings each feature's part of the tool's description (typically its
	 * effective settings) by contributor name, for the features that apply to the tool
	 */
	public record AgentToolDescriptor(String name, String description, SafetyLevel safety, boolean readOnly,
			boolean idempotent, List<String> tags, boolean returnDirect, Object inputSchema, String bean,
			List<String> chain, String pipeline, Map<String, Object> settings) implements OperationResponseBody {

	}

	/**
	 * The observer tier.
	 *
	 * @param droppedRecords how many call records were dropped because the asynchronous
	 * queue was full
	 * @param observerFailures how many times an observer threw
	 */
	public record ObserversDescriptor(long droppedRecords, long observerFailures) {

	}

}
