package dev.agentmiddleware.tool;

import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * One part of a rich tool result ({@link ToolContents}): a text, an image, an audio clip,
 * a link to a resource, or a resource embedded whole. Protocol-neutral: on MCP each part
 * becomes the content block of its kind ({@code text}, {@code image}, {@code audio},
 * {@code resource_link}, {@code resource}) with its {@linkplain Annotations annotations};
 * for a model on the Spring AI {@code ChatClient} path and for Java code each part
 * {@linkplain #describe() describes itself} as text, and binary data is never written out
 * (an image reads {@code [image/png, 12,345 bytes]}). <pre>{@code
 * ToolContent.text("Sales in March, by region");
 * ToolContent.image(png, "image/png").annotated(Annotations.forAudience(Audience.USER).withPriority(0.8));
 * ToolContent.resourceLink("file:///reports/march.csv", "march.csv").withMimeType("text/csv");
 * ToolContent.resource("file:///reports/notes.md", "# Notes ...", "text/markdown");
 * }</pre>
 *
 * <p>
 * <b>Contract.</b> Every part is immutable: binary data is copied in and copied out
 * ({@code data()} returns a copy), so a cached result can be handed to many callers.
 * Parts are values: two parts are equal when their kind, data and annotations are. Their
 * {@code toString()} never shows binary data, only its type and size.
 */
public sealed interface ToolContent permits ToolContent.Text, ToolContent.Image, ToolContent.Audio,
		ToolContent.ResourceLink, ToolContent.EmbeddedResource {

	/**
	 * A text part.
	 * @param text the text
	 * @return the part, without annotations
	 */
	static Text text(String text) {
		return new Text(text, null);
	}

	/**
	 * An image part.
	 * @param data the image's bytes, copied
	 * @param mimeType its MIME type, such as {@code image/png}
	 * @return the part, without annotations
	 * @throws IllegalArgumentException if the MIME type is not an {@code image/} type
	 */
	static Image image(byte[] data, String mimeType) {
		return new Image(data, mimeType, null);
	}

	/**
	 * An audio part.
	 * @param data the clip's bytes, copied
	 * @param mimeType its MIME type, such as {@code audio/wav}
	 * @return the part, without annotations
	 * @throws IllegalArgumentException if the MIME type is not an {@code audio/} type
	 */
	static Audio audio(byte[] data, String mimeType) {
		return new Audio(data, mimeType, null);
	}

	/**
	 * A link to a resource the caller may read itself (on MCP, with
	 * {@code resources/read}).
	 * @param uri the resource's URI
	 * @param name the resource's name
	 * @return the part, without title, description, MIME type, size or annotations
	 */
	static ResourceLink resourceLink(String uri, String name) {
		return new ResourceLink(uri, name, null, null, null, null, null);
	}

	/**
	 * A text resource embedded whole.
	 * @param uri the resource's URI
	 * @param text its text
	 * @param mimeType its MIME type, such as {@code text/markdown}, or {@code null} when
	 * unknown
	 * @return the part, without annotations
	 */
	static EmbeddedResource resource(String uri, String text, @Nullable String mimeType) {
		return new EmbeddedResource(uri, mimeType, text, null, null);
	}

	/**
	 * A binary resource embedded whole.
	 * @param uri the resource's URI
	 * @param blob its bytes, copied
	 * @param mimeType its MIME type, such as {@code application/pdf}
	 * @return the part, without annotations
	 */
	static EmbeddedResource resource(String uri, byte[] blob, String mimeType) {
		return new EmbeddedResource(uri, mimeType, null, blob, null);
	}

	/**
	 * The part's annotations.
	 * @return the annotations, or {@code null} for none
	 */
	@Nullable Annotations annotations();

	/**
	 * This part with other annotations.
	 * @param annotations the annotations, or {@code null} for none
	 * @return a copy of this part
	 */
	ToolContent annotated(@Nullable Annotations annotations);

	/**
	 * The part as a model or a person reads it in text: a text as it is, an embedded text
	 * resource as its URI then its text, anything binary as its type and size
	 * ({@code [image/png, 12,345 bytes]}), a link as its name and URI. Never binary data,
	 * never base64.
	 * @return the text
	 */
	String describe();

	/**
	 * How many bytes of binary data the part holds.
	 * @return the size of an image, an audio clip or an embedded binary resource; 0 for
	 * any other part
	 */
	default int binarySize() {
		return 0;
	}

	/**
	 * Who a part is for.
	 */
	enum Audience {

		/** The person using the client. */
		USER,

		/** The model. */
		ASSISTANT

	}

	/**
	 * What a client may use to decide how to show or use a part: whom it is for, how
	 * important it is, and when what it shows last changed (MCP's {@code annotations}).
	 * Immutable. <pre>{@code
	 * Annotations.forAudience(Audience.USER).withPriority(0.9).withLastModified(Instant.parse("2026-03-31T12:00:00Z"));
	 * }</pre>
	 *
	 * @param audience whom the part is for; empty when not said
	 * @param priority how important the part is, from 0 (entirely optional) to 1
	 * (required), or {@code null} when not said
	 * @param lastModified when what the part shows last changed, or {@code null} when not
	 * said
	 */
	record Annotations(Set<Audience> audience, @Nullable Double priority, @Nullable Instant lastModified) {

		/**
		 * Checks the annotations.
		 * @throws IllegalArgumentException if the priority is outside 0 to 1
		 */
		public Annotations {
			audience = audience.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(audience));
			if (priority != null && !(priority >= 0 && priority <= 1)) {
				throw new IllegalArgumentException("priority must be between 0 and 1, was " + priority);
			}
		}

		/**
		 * Annotations that say whom a part is for.
		 * @param audience whom the part is for
		 * @return the annotations, without priority or time
		 */
		public static Annotations forAudience(Audience... audience) {
			return new Annotations(Set.of(audience), null, null);
		}

		/**
		 * These annotations with a priority.
		 * @param priority from 0 (entirely optional) to 1 (required)
		 * @return a copy
		 */
		public Annotations withPriority(double priority) {
			return new Annotations(this.audience, priority, this.lastModified);
		}

		/**
		 * These annotations with the time what the part shows last changed.
		 * @param lastModified the time
		 * @return a copy
		 */
		public Annotations withLastModified(Instant lastModified) {
			return new Annotations(this.audience, this.priority, Objects.requireNonNull(lastModified, "lastModified"));
		}

	}

	/**
	 * A text.
	 *
	 * @param text the text
	 * @param annotations the annotations, or {@code null}
	 */
	record Text(String text, @Nullable Annotations annotations) implements ToolContent {

		public Text {
			Objects.requireNonNull(text, "text");
		}

		/**
		 * This part with another text, with the same annotations.
		 * @param replacement the text
		 * @return a copy
		 */
		public Text withText(String replacement) {
			return new Text(replacement, this.annotations);
		}

		@Override
		public Text annotated(@Nullable Annotations annotations) {
			return new Text(this.text, annotations);
		}

		@Override
		public String describe() {
			return this.text;
		}

		@Override
		public String toString() {
			return "Text[" + this.text.length() + " chars" + ContentParts.annotationsText(this.annotations) + "]";
		}

	}

	/**
	 * An image.
	 *
	 * @param data the image's bytes
	 * @param mimeType its MIME type, an {@code image/} type
	 * @param annotations the annotations, or {@code null}
	 */
	record Image(byte[] data, String mimeType, @Nullable Annotations annotations) implements ToolContent {

		public Image {
			data = data.clone();
			ContentParts.checkMimeType(mimeType, "image/");
		}

		/**
		 * The image's bytes.
		 * @return a copy of them
		 */
		@Override
		public byte[] data() {
			return this.data.clone();
		}

		/**
		 * The image's bytes in base64, as MCP sends them.
		 * @return the base64 text
		 */
		public String base64() {
			return ContentParts.base64(this.data);
		}

		@Override
		public int binarySize() {
			return this.data.length;
		}

		@Override
		public Image annotated(@Nullable Annotations annotations) {
			return new Image(this.data, this.mimeType, annotations);
		}

		@Override
		public String describe() {
			return ContentParts.describe(this.mimeType, this.data.length);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Image that && this.mimeType.equals(that.mimeType)
					&& Arrays.equals(this.data, that.data) && Objects.equals(this.annotations, that.annotations);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.mimeType, Arrays.hashCode(this.data), this.annotations);
		}

		@Override
		public String toString() {
			return "Image[" + ContentParts.typeAndSize(this.mimeType, this.data.length)
					+ ContentParts.annotationsText(this.annotations) + "]";
		}

	}

	/**
	 * An audio clip.
	 *
	 * @param data the clip's bytes
	 * @param mimeType its MIME type, an {@code audio/} type
	 * @param annotations the annotations, or {@code null}
	 */
	record Audio(byte[] data, String mimeType, @Nullable Annotations annotations) implements ToolContent {

		public Audio {
			data = data.clone();
			ContentParts.checkMimeType(mimeType, "audio/");
		}

		/**
		 * The clip's bytes.
		 * @return a copy of them
		 */
		@Override
		public byte[] data() {
			return this.data.clone();
		}

		/**
		 * The clip's bytes in base64, as MCP sends them.
		 * @return the base64 text
		 */
		public String base64() {
			return ContentParts.base64(this.data);
		}

		@Override
		public int binarySize() {
			return this.data.length;
		}

		@Override
		public Audio annotated(@Nullable Annotations annotations) {
			return new Audio(this.data, this.mimeType, annotations);
		}

		@Override
		public String describe() {
			return ContentParts.describe(this.mimeType, this.data.length);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Audio that && this.mimeType.equals(that.mimeType)
					&& Arrays.equals(this.data, that.data) && Objects.equals(this.annotations, that.annotations);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.mimeType, Arrays.hashCode(this.data), this.annotations);
		}

		@Override
		public String toString() {
			return "Audio[" + ContentParts.typeAndSize(this.mimeType, this.data.length)
					+ ContentParts.annotationsText(this.annotations) + "]";
		}

	}

	/**
	 * A link to a resource the caller may read itself.
	 *
	 * @param uri the resource's URI
	 * @param name the resource's name
	 * @param title its title for a person, or {@code null}
	 * @param description what it is, or {@code null}
	 * @param mimeType its MIME type, or {@code null} when unknown
	 * @param size its size in bytes, or {@code null} when unknown
	 * @param annotations the annotations, or {@code null}
	 */
	record ResourceLink(String uri, String name, @Nullable String title, @Nullable String description,
			@Nullable String mimeType, @Nullable Long size, @Nullable Annotations annotations) implements ToolContent {

		/**
		 * Checks the link.
		 * @throws IllegalArgumentException if the URI is not one, or the size is negative
		 */
		public ResourceLink {
			ContentParts.checkUri(uri);
			Objects.requireNonNull(name, "name");
			if (size != null && size < 0) {
				throw new IllegalArgumentException("size must not be negative, was " + size);
			}
		}

		/**
		 * This link with a title.
		 * @param title the title for a person
		 * @return a copy
		 */
		public ResourceLink withTitle(@Nullable String title) {
			return new ResourceLink(this.uri, this.name, title, this.description, this.mimeType, this.size,
					this.annotations);
		}

		/**
		 * This link with a description.
		 * @param description what the resource is
		 * @return a copy
		 */
		public ResourceLink withDescription(@Nullable String description) {
			return new ResourceLink(this.uri, this.name, this.title, description, this.mimeType, this.size,
					this.annotations);
		}

		/**
		 * This link with a MIME type.
		 * @param mimeType the resource's MIME type
		 * @return a copy
		 */
		public ResourceLink withMimeType(@Nullable String mimeType) {
			return new ResourceLink(this.uri, this.name, this.title, this.description, mimeType, this.size,
					this.annotations);
		}

		/**
		 * This link with a size.
		 * @param size the resource's size in bytes
		 * @return a copy
		 */
		public ResourceLink withSize(@Nullable Long size) {
			return new ResourceLink(this.uri, this.name, this.title, this.description, this.mimeType, size,
					this.annotations);
		}

		@Override
		public ResourceLink annotated(@Nullable Annotations annotations) {
			return new ResourceLink(this.uri, this.name, this.title, this.description, this.mimeType, this.size,
					annotations);
		}

		@Override
		public String describe() {
			StringBuilder text = new StringBuilder("[resource link: ").append(this.name).append(", ").append(this.uri);
			if (this.mimeType != null) {
				text.append(", ").append(this.mimeType);
			}
			if (this.size != null) {
				text.append(", ").append(String.format(Locale.ROOT, "%,d bytes", this.size));
			}
			text.append(']');
			if (this.title != null) {
				text.append(' ').append(this.title);
			}
			if (this.description != null) {
				text.append(": ").append(this.description);
			}
			return text.toString();
		}

	}

	/**
	 * A resource embedded whole: its text, or its bytes.
	 *
	 * @param uri the resource's URI
	 * @param mimeType its MIME type; {@code null} only for a text resource whose type is
	 * unknown
	 * @param text its text, or {@code null} for a binary resource
	 * @param blob its bytes, or {@code null} for a text resource
	 * @param annotations the annotations, or {@code null}
	 */
	record EmbeddedResource(String uri, @Nullable String mimeType, @Nullable String text, byte @Nullable [] blob,
			@Nullable Annotations annotations) implements ToolContent {

		/**
		 * Checks the resource.
		 * @throws IllegalArgumentException unless exactly one of text and blob is given,
		 * or for a binary resource without a MIME type
		 */
		public EmbeddedResource {
			ContentParts.checkUri(uri);
			if ((text == null) == (blob == null)) {
				throw new IllegalArgumentException("An embedded resource has either a text or a blob, not "
						+ ((text == null) ? "neither" : "both"));
			}
			if (blob != null) {
				Objects.requireNonNull(mimeType, "mimeType of a binary resource");
				blob = blob.clone();
			}
		}

		/**
		 * Whether this is a text resource.
		 * @return {@code true} for text, {@code false} for bytes
		 */
		public boolean isText() {
			return this.text != null;
		}

		/**
		 * The resource's bytes.
		 * @return a copy of them, or {@code null} for a text resource
		 */
		@Override
		public byte @Nullable [] blob() {
			return (this.blob != null) ? this.blob.clone() : null;
		}

		/**
		 * The bytes of a binary resource in base64, as MCP sends them.
		 * @return the base64 text
		 * @throws IllegalStateException for a text resource
		 */
		public String base64() {
			if (this.blob == null) {
				throw new IllegalStateException("A text resource has no blob; use text()");
			}
			return ContentParts.base64(this.blob);
		}

		/**
		 * This text resource with another text, with the same URI, MIME type and
		 * annotations.
		 * @param replacement the text
		 * @return a copy
		 * @throws IllegalStateException for a binary resource
		 */
		public EmbeddedResource withText(String replacement) {
			if (this.text == null) {
				throw new IllegalStateException("A binary resource has no text");
			}
			return new EmbeddedResource(this.uri, this.mimeType, replacement, null, this.annotations);
		}

		@Override
		public int binarySize() {
			return (this.blob != null) ? this.blob.length : 0;
		}

		@Override
		public EmbeddedResource annotated(@Nullable Annotations annotations) {
			return new EmbeddedResource(this.uri, this.mimeType, this.text, this.blob, annotations);
		}

		@Override
		public String describe() {
			if (this.text != null) {
				return "[resource " + this.uri + ((this.mimeType != null) ? ", " + this.mimeType : "") + "]\n"
						+ this.text;
			}
			return "[resource " + this.uri + ", "
					+ ContentParts.typeAndSize(Objects.requireNonNull(this.mimeType), binarySize()) + "]";
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof EmbeddedResource that && this.uri.equals(that.uri)
					&& Objects.equals(this.mimeType, that.mimeType) && Objects.equals(this.text, that.text)
					&& Arrays.equals(this.blob, that.blob) && Objects.equals(this.annotations, that.annotations);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.uri, this.mimeType, this.text, Arrays.hashCode(this.blob), this.annotations);
		}

		@Override
		public String toString() {
			String content = (this.text != null) ? this.mimeType + ", " + this.text.length() + " chars"
					: ContentParts.typeAndSize(Objects.requireNonNull(this.mimeType), binarySize());
			return "EmbeddedResource[" + this.uri + ", " + content + ContentParts.annotationsText(this.annotations)
					+ "]";
		}

	}

}
