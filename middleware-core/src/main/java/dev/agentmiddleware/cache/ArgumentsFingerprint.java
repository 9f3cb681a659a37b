package dev.agentmiddleware.cache;

import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one definition of "the same arguments", shared by the result cache's key, the loop
 * guard's repeated-call detection and the hash an approval is bound to: the canonical
 * JSON of the bound arguments (map entries and object properties sorted by name at every
 * depth, no whitespace, UTF-8), so that two calls whose arguments serialise alike are the
 * same call even when an argument's class (a JavaBean DTO, say) has no {@code equals},
 * and key order never matters. Lists and arrays keep their order; numbers keep their JSON
 * form ({@code 1} and {@code 1.0} differ).
 *
 * <p>
 * The canonical bytes are streamed by Jackson straight into a per-thread buffer through a
 * per-thread generator (both reused), never built into a {@code String}; the cache looks
 * up with the buffer itself and copies the bytes only into the keys it stores. Two
 * fingerprints are equal exactly when their canonical bytes are (a 128-bit
 * non-cryptographic hash of the bytes answers most comparisons and {@link #hashCode()};
 * the bytes decide, so there are no false matches). {@link #sha256()} is the stable,
 * cross-instance form (stored by the JDBC approval store, published in cache
 * invalidations): the lower-case hex SHA-256 of the canonical bytes, computed on first
 * use. Immutable and thread-safe. <pre>{@code
 * ArgumentsFingerprint a = ArgumentsFingerprint.of(Map.of("city", "Oslo", "days", 3));
 * ArgumentsFingerprint b = ArgumentsFingerprint.of(Map.of("days", 3, "city", "Oslo"));
 * a.equals(b);   // true
 * a.sha256();    // SHA-256 of {"city":"Oslo","days":3}
 * }</pre>
 */
public final class ArgumentsFingerprint {

	private static final JsonMapper CANONICAL_JSON = JsonMapper
		.builder(JsonFactory.builder().rootValueSeparator((String) null).build())
		.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
		.enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
		.disable(MapperFeature.SORT_CREATOR_PROPERTIES_FIRST)
		.disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
		.build();

	private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

	private static final ThreadLocal<Buffer> BUFFERS = ThreadLocal.withInitial(Buffer::new);

	private static final long PRIME_1 = 0x9E3779B97F4A7C15L;

	private static final long PRIME_2 = 0xC2B2AE3D27D4EB4FL;

	// The canonical JSON is canonical[0, length); a probe's array is its thread's buffer,
	// overwritten by the next
	private final byte[] canonical;

	private final int length;

	private final boolean owned;

	private final long high;

	private final long low;

	private volatile @Nullable String sha256;

	private ArgumentsFingerprint(byte[] canonical, int length, boolean owned) {
		this.canonical = canonical;
		this.length = length;
		this.owned = owned;
		long h1 = PRIME_1 ^ length;
		long h2 = PRIME_2 + length;
		int i = 0;
		for (; i + Long.BYTES <= length; i += Long.BYTES) {
			long word = (long) LONGS.get(canonical, i);
			h1 = Long.rotateLeft(h1 ^ (word * PRIME_2), 31) * PRIME_1;
			h2 = Long.rotateLeft(h2 + (word * PRIME_1), 27) * PRIME_2 + h1;
		}
		for (; i < length; i++) {
			h1 = Long.rotateLeft(h1 ^ (canonical[i] * PRIME_2), 11) * PRIME_1;
			h2 = (h2 + canonical[i]) * PRIME_2;
		}
		this.high = mix(h1 + h2);
		this.low = mix(h2 ^ (h1 >>> 17));
	}

	private ArgumentsFingerprint(byte[] canonical, int length, long high, long low) {
		this.canonical = canonical;
		this.length = length;
		this.owned = true;
		this.high = high;
		this.low = low;
	}

	/**
	 * The fingerprint of arguments. Arguments Jackson cannot serialise count by their
	 * text ({@code String.valueOf}) per parameter, so that the call still has a
	 * fingerprint.
	 * @param arguments the bound arguments by parameter name
	 * @return the fingerprint
	 */
	public static ArgumentsFingerprint of(Map<String, ? extends @Nullable Object> arguments) {
		ArgumentsFingerprint fingerprint = ofSerializable(arguments);
		if (fingerprint != null) {
			return fingerprint;
		}
		Map<String, String> text = new TreeMap<>();
		arguments.forEach((name, value) -> text.put(name, String.valueOf(value)));
		byte[] bytes = CANONICAL_JSON.writeValueAsBytes(text);
		return new ArgumentsFingerprint(bytes, bytes.length, true);
	}

	/**
	 * The fingerprint of arguments, or {@code null} if Jackson cannot serialise them (the
	 * cache then compares such arguments structurally).
	 */
	static @Nullable ArgumentsFingerprint ofSerializable(Map<String, ? extends @Nullable Object> arguments) {
		ArgumentsFingerprint probe = probe(arguments);
		return (probe != null) ? probe.detached() : null;
	}

	/**
	 * Like {@link #ofSerializable}, without copying the canonical JSON out of this
	 * thread's buffer: the probe is valid only until the thread computes its next
	 * fingerprint. For a lookup that ends before then (the cache's); {@link #detached()}
	 * makes a fingerprint to keep.
	 */
	static @Nullable ArgumentsFingerprint probe(Map<String, ? extends @Nullable Object> arguments) {
		Buffer buffer = BUFFERS.get();
		if (buffer.inUse) {
			// A serializer that itself computes a fingerprint: use a buffer of its own
			buffer = new Buffer();
		}
		buffer.inUse = true;
		boolean written = false;
		try {
			buffer.writeCanonical(arguments);
			written = true;
			return new ArgumentsFingerprint(buffer.bytes, buffer.count, false);
		}
		catch (JacksonException | IllegalArgumentException | ArrayStoreException ex) {
			return null;
		}
		finally {
			buffer.release(written);
		}
	}

	/**
	 * This fingerprint with a copy of its canonical JSON of its own.
	 * @return a fingerprint to keep
	 */
	ArgumentsFingerprint detached() {
		if (this.owned) {
			return this;
		}
		return new ArgumentsFingerprint(Arrays.copyOf(this.canonical, this.length), this.length, this.high, this.low);
	}

	/**
	 * The stable form of this fingerprint, to store or to compare across instances.
	 * @return the SHA-256 of the canonical JSON, in lower-case hex
	 */
	public String sha256() {
		String hex = this.sha256;
		if (hex == null) {
			try {
				MessageDigest digest = MessageDigest.getInstance("SHA-256");
				digest.update(this.canonical, 0, this.length);
				hex = HexFormat.of().formatHex(digest.digest());
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException("SHA-256 is not available", ex);
			}
			this.sha256 = hex;
		}
		return hex;
	}

	/**
	 * The size of the canonical JSON.
	 * @return its length in bytes
	 */
	int length() {
		return this.length;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		return other instanceof ArgumentsFingerprint that && this.high == that.high && this.low == that.low
				&& Arrays.equals(this.canonical, 0, this.length, that.canonical, 0, that.length);
	}

	@Override
	public int hashCode() {
		return (int) (this.low ^ (this.low >>> 32));
	}

	@Override
	public String toString() {
		// The canonical JSON holds argument values, which may be secrets: show only the
		// hash.
		return "ArgumentsFingerprint[" + HexFormat.of().toHexDigits(this.high) + HexFormat.of().toHexDigits(this.low)
				+ "]";
	}

	private static long mix(long value) {
		long h = value;
		h ^= h >>> 33;
		h *= 0xFF51AFD7ED558CCDL;
		h ^= h >>> 33;
		h *= 0xC4CEB9FE1A85EC53L;
		h ^= h >>> 33;
		return h;
	}

	/**
	 * A growable byte sink the canonical JSON is written into, with a generator over it;
	 * one per thread, reused. Parameters are written in name order by this class and
	 * their values by Jackson, so that the arguments map itself is never copied to sort
	 * it.
	 */
	private static final class Buffer extends OutputStream {

		private static final int MAX_KEPT = 64 * 1024;

		private byte[] bytes = new byte[256];

		private int count;

		private boolean inUse;

		private @Nullable JsonGenerator generator;

		void writeCanonical(Map<String, ? extends @Nullable Object> arguments) {
			this.count = 0;
			JsonGenerator json = this.generator;
			if (json == null) {
				json = CANONICAL_JSON.createGenerator(this);
				this.generator = json;
			}
			String[] names = arguments.keySet().toArray(new String[0]);
			if (names.length > 1) {
				Arrays.sort(names); // as ORDER_MAP_ENTRIES_BY_KEYS sorts nested maps
			}
			json.writeStartObject();
			for (String name : names) {
				json.writeName(name);
				Object value = arguments.get(name);
				if (value == null) {
					json.writeNull();
				}
				else if (value instanceof String text) {
					json.writeString(text);
				}
				else if (value instanceof Integer number) {
					json.writeNumber(number);
				}
				else if (value instanceof Long number) {
					json.writeNumber(number);
				}
				else if (value instanceof Boolean bool) {
					json.writeBoolean(bool);
				}
				else {
					CANONICAL_JSON.writeValue(json, value);
				}
			}
			json.writeEndObject();
			json.flush();
		}

		void release(boolean written) {
			this.inUse = false;
			if (!written) {
				this.generator = null; // a failed write leaves the generator mid-value
			}
			if (this.bytes.length > MAX_KEPT) {
				this.bytes = new byte[256]; // a huge argument once does not stay on the
											// thread
				this.generator = null;
			}
		}

		@Override
		public void write(int b) {
			ensure(1);
			this.bytes[this.count++] = (byte) b;
		}

		@Override
		public void write(byte[] source, int offset, int length) {
			ensure(length);
			System.arraycopy(source, offset, this.bytes, this.count, length);
			this.count += length;
		}

		private void ensure(int more) {
			if (this.count + more > this.bytes.length) {
				this.bytes = Arrays.copyOf(this.bytes, Math.max(this.bytes.length * 2, this.count + more));
			}
		}

	}

}
