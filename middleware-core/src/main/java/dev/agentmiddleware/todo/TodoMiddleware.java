package dev.agentmiddleware.todo;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.agentmiddleware.agent.AgentMiddleware;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.cache.CacheMiddleware;
import dev.agentmiddleware.thread.ThreadStore;
import dev.agentmiddleware.tool.ExecutableTool;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolInvocation;
import org.jspecify.annotations.Nullable;

/**
 * Lets a model plan and track its task with a todo list kept in the thread metadata under
 * {@value #TODOS_KEY}.
 *
 * <p>
 * Contributes three tools; the thread is the call's session id (the conversation id on
 * the {@code ChatClient} path, the MCP session on the MCP path):
 * <ul>
 * <li>{@value #WRITE_TODOS} {@code {todos: [{id, text, status}]}} replaces the list;</li>
 * <li>{@value #READ_TODOS} {@code {}} returns it;</li>
 * <li>{@value #UPDATE_TODO} {@code {id, status?, text?}} changes one item, so ticking an
 * item off does not mean rewriting the list.</li>
 * </ul>
 * Each returns {@code {todos: [...]}}, the list as stored. Input is validated before
 * anything is written: ids present and unique, statuses {@code pending},
 * {@code in_progress} or {@code done}, at most {@link TodoLimits#maxItems()} items of at
 * most {@link TodoLimits#maxTextLength()} characters. Bad input fails with an
 * {@link InvalidToolArgumentsException} naming the tool, the parameter and what was
 * expected, and changes nothing. Updates are atomic per thread.
 *
 * <p>
 * <b>Declared as:</b> all three {@link SafetyLevel#SAFE}, idempotent (the same call twice
 * leaves the same list) and closed-world (they touch only the thread's own list);
 * {@value #READ_TODOS} is read-only but tagged {@value CacheMiddleware#UNCACHEABLE_TAG},
 * since its answer changes whenever the list does; {@value #WRITE_TODOS} and
 * {@value #UPDATE_TODO} change only the calling thread's own list, the agent's working
 * notes, never user data or another system, so they are not declared destructive (MCP's
 * {@code destructiveHint} is {@code false}) although {@value #WRITE_TODOS} replaces the
 * list as a whole. <pre>{@code
 * AgentMiddleware todos = new TodoMiddleware(threadStore, TodoLimits.DEFAULTS);
 * }</pre>
 */
public final class TodoMiddleware implements AgentMiddleware {

	/** The middleware's name. */
	public static final String NAME = "todo";

	/** The thread-metadata key of the list. */
	public static final String TODOS_KEY = "todos";

	/** The tool that replaces the list. */
	public static final String WRITE_TODOS = "write_todos";

	/** The tool that reads the list. */
	public static final String READ_TODOS = "read_todos";

	/** The tool that changes one item. */
	public static final String UPDATE_TODO = "update_todo";

	private static final String STATUS_SCHEMA = "{\"type\":\"string\",\"enum\":[\"pending\",\"in_progress\",\"done\"]}";

	private static final String ITEM_SCHEMA = "{\"type\":\"object\",\"properties\":{"
			+ "\"id\":{\"type\":\"string\",\"description\":\"Unique id of the item\"},"
			+ "\"text\":{\"type\":\"string\",\"description\":\"What to do\"}," + "\"status\":" + STATUS_SCHEMA + "},"
			+ "\"required\":[\"id\",\"text\",\"status\"],\"additionalProperties\":false}";

	private final ThreadStore threadStore;

	private final TodoLimits limits;

	private final List<ExecutableTool> tools;

	/**
	 * Creates the middleware.
	 * @param threadStore keeps the lists
	 * @param limits bounds on a list
	 */
	public TodoMiddleware(ThreadStore threadStore, TodoLimits limits) {
		this.threadStore = Objects.requireNonNull(threadStore, "threadStore");
		this.limits = Objects.requireNonNull(limits, "limits");
		this.tools = List.of(writeTodos(), readTodos(), updateTodo());
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public List<ExecutableTool> tools() {
		return this.tools;
	}

	/**
	 * The todo list of a thread.
	 * @param threadId the thread
	 * @return the items, in order; empty when none were written
	 */
	public List<TodoItem> todos(String threadId) {
		return stored(this.threadStore.load(threadId).get(TODOS_KEY));
	}

	// What all three declare (see the class description): safe, idempotent, closed-world,
	// answering {todos: [...]}.
	private static ToolDescriptor.Builder todoTool(String name, String title) {
		return ToolDescriptor.builder(name)
			.title(title)
			.safety(SafetyLevel.SAFE)
			.idempotent(true)
			.openWorld(false)
			.resultType(Map.class);
	}

	private ExecutableTool writeTodos() {
		ToolDescriptor descriptor = todoTool(WRITE_TODOS, "Write the todo list")
			.description("Create or replace the todo list for the current task. Each item has an id, a text and a "
					+ "status (pending, in_progress or done). Returns the list as stored.")
			.inputSchema("{\"type\":\"object\",\"properties\":{\"todos\":{\"type\":\"array\",\"items\":" + ITEM_SCHEMA
					+ ",\"description\":\"The whole todo list\"}},\"required\":[\"todos\"],"
					+ "\"additionalProperties\":false}")
			.build();
		return new ExecutableTool(descriptor, (invocation) -> {
			String threadId = threadId(invocation);
			List<TodoItem> items = parseList(invocation.argument("todos"));
			this.threadStore.update(threadId, (metadata) -> with(metadata, items));
			return result(items);
		});
	}

	private ExecutableTool readTodos() {
		// Read-only, but not cached by default: the list changes under the same (empty)
		// arguments.
		ToolDescriptor descriptor = todoTool(READ_TODOS, "Read the todo list")
			.description("Read the current todo list. Returns {todos: [{id, text, status}]}.")
			.readOnly(true)
			.tags(CacheMiddleware.UNCACHEABLE_TAG)
			.build();
		return new ExecutableTool(descriptor, (invocation) -> result(todos(threadId(invocation))));
	}

	private ExecutableTool updateTodo() {
		ToolDescriptor descriptor = todoTool(UPDATE_TODO, "Update a todo item")
			.description("Change one item of the todo list: its status, its text, or both. Returns the list.")
			.inputSchema("{\"type\":\"object\",\"properties\":{"
					+ "\"id\":{\"type\":\"string\",\"description\":\"The id of the item to change\"}," + "\"status\":"
					+ STATUS_SCHEMA + "," + "\"text\":{\"type\":\"string\",\"description\":\"The new text\"}},"
					+ "\"required\":[\"id\"],\"additionalProperties\":false}")
			.build();
		return new ExecutableTool(descriptor, (invocation) -> {
			String threadId = threadId(invocation);
			String id = requireText(UPDATE_TODO, "id", invocation.argument("id"));
			Object statusArgument = invocation.argument("status");
			Object textArgument = invocation.argument("text");
			if (statusArgument == null && textArgument == null) {
				throw new InvalidToolArgumentsException(UPDATE_TODO, null,
						"give 'status' (pending, in_progress or done), 'text', or both");
			}
			TodoItem.Status status = (statusArgument != null) ? status(UPDATE_TODO, "status", statusArgument) : null;
			String text = (textArgument != null) ? text(UPDATE_TODO, "text", textArgument) : null;
			List<TodoItem> updated = new ArrayList<>();
			this.threadStore.update(threadId, (metadata) -> {
				List<TodoItem> items = new ArrayList<>(stored(metadata.get(TODOS_KEY)));
				int index = indexOf(items, id);
				TodoItem item = items.get(index);
				items.set(index, new TodoItem(id, (text != null) ? text : item.text(),
						(status != null) ? status : item.status()));
				updated.clear();
				updated.addAll(items);
				return with(metadata, items);
			});
			return result(updated);
		});
	}

	private static int indexOf(List<TodoItem> items, String id) {
		for (int i = 0; i < items.size(); i++) {
			if (items.get(i).id().equals(id)) {
				return i;
			}
		}
		List<String> known = items.stream().map(TodoItem::id).toList();
		throw new InvalidToolArgumentsException(UPDATE_TODO, "id", "no todo has the id '" + echo(id) + "'; "
				+ (known.isEmpty() ? "the list is empty, write it with write_todos first" : "known ids: " + known));
	}

	private List<TodoItem> parseList(@Nullable Object value) {
		if (!(value instanceof List<?> list)) {
			throw new InvalidToolArgumentsException(WRITE_TODOS, "todos",
					"expected an array of {id, text, status} items");
		}
		if (list.size() > this.limits.maxItems()) {
			throw new InvalidToolArgumentsException(WRITE_TODOS, "todos",
					"has " + list.size() + " items; at most " + this.limits.maxItems() + " are allowed");
		}
		List<TodoItem> items = new ArrayList<>(list.size());
		Set<String> ids = new HashSet<>();
		for (int i = 0; i < list.size(); i++) {
			String where = "todos[" + i + "]";
			if (!(list.get(i) instanceof Map<?, ?> item)) {
				throw new InvalidToolArgumentsException(WRITE_TODOS, where, "expected an object {id, text, status}");
			}
			for (Object key : item.keySet()) {
				if (!"id".equals(key) && !"text".equals(key) && !"status".equals(key)) {
					throw new InvalidToolArgumentsException(WRITE_TODOS, where,
							"'" + echo(String.valueOf(key)) + "' is not a property; expected id, text and status");
				}
			}
			String id = requireText(WRITE_TODOS, where + ".id", item.get("id"));
			if (!ids.add(id)) {
				throw new InvalidToolArgumentsException(WRITE_TODOS, where + ".id",
						"the id '" + echo(id) + "' is used twice; ids must be unique");
			}
			String text = text(WRITE_TODOS, where + ".text", item.get("text"));
			TodoItem.Status status = status(WRITE_TODOS, where + ".status", item.get("status"));
			items.add(new TodoItem(id, text, status));
		}
		return items;
	}

	private String requireText(String tool, String parameter, @Nullable Object value) {
		if (!(value instanceof String text) || text.isBlank()) {
			throw new InvalidToolArgumentsException(tool, parameter, "is required: expected a non-empty string");
		}
		if (text.length() > this.limits.maxTextLength()) {
			throw new InvalidToolArgumentsException(tool, parameter, "is " + text.length()
					+ " characters long; at most " + this.limits.maxTextLength() + " are allowed");
		}
		return text;
	}

	private String text(String tool, String parameter, @Nullable Object value) {
		if (!(value instanceof String text)) {
			throw new InvalidToolArgumentsException(tool, parameter, "is required: expected a string");
		}
		if (text.length() > this.limits.maxTextLength()) {
			throw new InvalidToolArgumentsException(tool, parameter, "is " + text.length()
					+ " characters long; at most " + this.limits.maxTextLength() + " are allowed");
		}
		return text;
	}

	private static TodoItem.Status status(String tool, String parameter, @Nullable Object value) {
		TodoItem.Status status = TodoItem.Status.fromJson(value);
		if (status == null) {
			throw new InvalidToolArgumentsException(tool, parameter, "expected one of: pending, in_progress, done");
		}
		return status;
	}

	private static String threadId(ToolInvocation invocation) {
		String threadId = invocation.sessionId();
		if (threadId == null || threadId.isBlank()) {
			throw new IllegalStateException("The tool '" + invocation.toolName() + "' keeps todos per thread, but "
					+ "this call has none: call it in a conversation (with a conversation id) or an MCP session");
		}
		return threadId;
	}

	private static Map<String, @Nullable Object> with(Map<String, @Nullable Object> metadata, List<TodoItem> items) {
		Map<String, @Nullable Object> changed = new LinkedHashMap<>(metadata);
		changed.put(TODOS_KEY, items.stream().map(TodoItem::toJson).toList());
		return changed;
	}

	private static Map<String, Object> result(List<TodoItem> items) {
		return Map.of(TODOS_KEY, items.stream().map(TodoItem::toJson).toList());
	}

	private static List<TodoItem> stored(@Nullable Object value) {
		if (!(value instanceof List<?> list)) {
			return List.of();
		}
		List<TodoItem> items = new ArrayList<>(list.size());
		for (Object each : list) {
			if (each instanceof Map<?, ?> item && item.get("id") instanceof String id
					&& item.get("text") instanceof String text) {
				TodoItem.Status status = TodoItem.Status.fromJson(item.get("status"));
				items.add(new TodoItem(id, text, (status != null) ? status : TodoItem.Status.PENDING));
			}
		}
		return List.copyOf(items);
	}

	// Ids come from the model: echo a bounded part of them only.
	private static String echo(String value) {
		return (value.length() <= 64) ? value : value.substring(0, 61) + "...";
	}

	/**
	 * Bounds on a todo list.
	 *
	 * @param maxItems the most items a list may hold
	 * @param maxTextLength the most characters of an item's text (and of its id)
	 */
	public record TodoLimits(int maxItems, int maxTextLength) {

		/** 100 items of at most 1000 characters. */
		public static final TodoLimits DEFAULTS = new TodoLimits(100, 1000);

		/**
		 * Validates the bounds.
		 */
		public TodoLimits {
			if (maxItems < 1 || maxTextLength < 1) {
				throw new IllegalArgumentException("Todo limits must be positive");
			}
		}

	}

}
