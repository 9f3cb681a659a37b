package dev.agentmiddleware.conformance;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentTool.TaskSupport;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ElicitationRequest;
import dev.agentmiddleware.tool.ElicitationResult;
import dev.agentmiddleware.tool.ToolClient;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;

import org.springframework.stereotype.Component;

/**
 * The tools the scenarios of the tasks extension ({@code tasks-*}) call, by the names
 * they use: a tool that never runs as a task, tools that run as one when the client
 * declared the extension (a slow one its client cancels, one that ends with a tool error,
 * one whose handler fails, ones that ask their client's user, one that asks its user by
 * {@code input_required} round trips before its task), declared with
 * {@code @AgentTool(taskSupport = ...)}.
 */
@Component
public class ConformanceTaskTools {

	// Asks the second question of multi_input while the tool's thread asks the first
	private static final ExecutorService QUESTIONS = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "conformance-question");
		thread.setDaemon(true);
		return thread;
	});

	@AgentTool(name = "greet", description = "Greets someone, at once (never a task)", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false)
	public String greet(@AgentToolParam(description = "Who to greet") String name) {
		return "Hello, " + name + "!";
	}

	/**
	 * Works for the given seconds, then answers; a cancelled call is interrupted.
	 * @param seconds how long to work
	 * @param label what the work is called
	 * @return what was computed
	 * @throws InterruptedException if the call is cancelled while it works
	 */
	@AgentTool(name = "slow_compute", description = "Computes for the given seconds, then answers",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, tags = "interruptible",
			taskSupport = TaskSupport.OPTIONAL)
	public String slowCompute(@AgentToolParam(description = "How long to compute, in seconds") double seconds,
			@AgentToolParam(description = "A label for the result", required = false) String label)
			throws InterruptedException {
		Thread.sleep(Math.round(seconds * 1000));
		return "Computed " + ((label != null) ? label : "result") + " in " + seconds + "s";
	}

	/**
	 * Ends with a tool error after about a second; runs only as a task.
	 * @throws InterruptedException if the call is cancelled while it works
	 */
	@AgentTool(name = "failing_job", description = "Fails with a tool error after about a second",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, tags = "interruptible",
			taskSupport = TaskSupport.REQUIRED)
	public String failingJob() throws InterruptedException {
		Thread.sleep(1000);
		throw new IllegalStateException("The job failed, as it always does");
	}

	/**
	 * Fails in a way no tool error describes: an {@link Error} leaves the chain, so the
	 * task fails with a JSON-RPC error instead of completing.
	 */
	@AgentTool(name = "protocol_error_job", description = "Fails at the protocol level", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false, taskSupport = TaskSupport.OPTIONAL)
	public String protocolErrorJob() {
		throw new Panic();
	}

	/**
	 * Asks the client's user to confirm, then answers.
	 * @param filename the file to delete
	 * @param client the call's client
	 * @return what was done
	 */
	@AgentTool(name = "confirm_delete", description = "Deletes a file once the user confirms",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, taskSupport = TaskSupport.OPTIONAL)
	public String confirmDelete(@AgentToolParam(description = "The file to delete") String filename,
			ToolClient client) {
		ElicitationResult answer = client.elicit(confirmation("Delete " + filename + "?"));
		return confirmed(answer) ? "Deleted " + filename : "Kept " + filename;
	}

	/**
	 * Asks the client's user two questions at once (the second on a thread of its own),
	 * then answers.
	 * @param client the call's client
	 * @return both answers
	 */
	@AgentTool(name = "multi_input", description = "Asks two questions at once", safety = SafetyLevel.SAFE,
			readOnly = true, openWorld = false, taskSupport = TaskSupport.OPTIONAL)
	public String multiInput(ToolClient client) {
		CompletableFuture<ElicitationResult> second = CompletableFuture
			.supplyAsync(() -> client.elicit(confirmation("Second question?")), QUESTIONS);
		ElicitationResult first = client.elicit(confirmation("First question?"));
		return "First: " + first.content() + ", second: " + second.join().content();
	}

	/**
	 * Asks the user's name by {@code input_required} round trips, then runs as a task
	 * that greets them (scenario {@code tasks-mrtr-composition}): the first round answers
	 * {@code input_required} asking for {@code user_name}, the retry with the answer
	 * answers the task, whose result names the user.
	 * @param client the call's client
	 * @return the greeting
	 */
	@AgentTool(name = "test_tool_with_task", description = "Asks the user's name, then greets them as a task",
			safety = SafetyLevel.SAFE, readOnly = true, openWorld = false, taskSupport = TaskSupport.REQUIRED,
			inputBeforeTask = true)
	public String toolWithTask(ToolClient client) {
		ElicitationResult answer = client.elicit(ElicitationRequest.builder("What is your name?")
			.property("name", Map.of("type", "string"))
			.required("name")
			.id("user_name")
			.build());
		return "Hello, " + answer.content().get("name") + "!";
	}

	private static ElicitationRequest confirmation(String message) {
		return ElicitationRequest.builder(message)
			.property("name", Map.of("type", "string", "description", "A name"))
			.property("confirm", Map.of("type", "boolean", "description", "Whether to go ahead"))
			.build();
	}

	private static boolean confirmed(ElicitationResult answer) {
		return answer.action() == ElicitationResult.Action.ACCEPT
				&& Boolean.TRUE.equals(answer.content().get("confirm"));
	}

	/** What a tool throws to fail outside the tool-error contract. */
	static final class Panic extends Error {

		Panic() {
			super("The job panicked");
		}

	}

}
