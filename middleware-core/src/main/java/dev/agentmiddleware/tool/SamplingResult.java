package dev.agentmiddleware.tool;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The message a client's model produced for a tool's {@linkplain ToolClient#sample
 * sampling request}. Its {@link #toString()} never shows the text.
 *
 * @param text the message's text; a message of another kind (an image, audio) is
 * described, never given as data
 * @param model the name of the model that produced it, or {@code null}
 * @param stopReason why the model stopped ({@code endTurn}, {@code maxTokens},
 * {@code stopSequence}), or {@code null}
 */
public record SamplingResult(String text, @Nullable String model, @Nullable String stopReason) {

	/**
	 * Creates a result.
	 * @param text the message's text
	 * @param model the model's name, or {@code null}
	 * @param stopReason why the model stopped, or {@code null}
	 */
	public SamplingResult {
		Objects.requireNonNull(text, "text");
	}

	@Override
	public String toString() {
		return "SamplingResult[model=" + this.model + ", stopReason=" + this.stopReason + ", length="
				+ this.text.length() + "]";
	}

}
