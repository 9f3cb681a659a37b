package dev.agentmiddleware.binding;

import java.io.File;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.URI;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.Currency;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;

/**
 * The words that name kinds of JSON values in error messages, for a person and a model:
 * what a Java type expects ("an integer", "an array of strings") and what a token is ("a
 * string"). Never a value.
 */
final class JsonKinds {

	private static final Set<Class<?>> INTEGERS = Set.of(int.class, long.class, short.class, byte.class, Integer.class,
			Long.class, Short.class, Byte.class, BigInteger.class, AtomicInteger.class, AtomicLong.class,
			OptionalInt.class, OptionalLong.class);

	private static final Set<Class<?>> NUMBERS = Set.of(double.class, float.class, Double.class, Float.class,
			BigDecimal.class, Number.class, OptionalDouble.class);

	private static final Set<Class<?>> BOOLEANS = Set.of(boolean.class, Boolean.class, AtomicBoolean.class);

	private static final Set<Class<?>> STRINGS = Set.of(UUID.class, URI.class, URL.class, Path.class, File.class,
			Locale.class, Currency.class, Pattern.class, Charset.class, TimeZone.class, InetAddress.class, Class.class);

	private JsonKinds() {
	}

	/**
	 * What a value of the type must be, such as {@code an integer},
	 * {@code an array of strings} or {@code one of [CELSIUS, FAHRENHEIT]}.
	 * @param type the Java type bound to
	 * @return the words, starting with an article where English needs one
	 */
	static String expected(JavaType type) {
		return describe(type, false);
	}

	/**
	 * What a token is, such as {@code a string} or {@code an array}.
	 * @param token the token found, or {@code null} at the end of the input
	 * @return the words
	 */
	static String found(@Nullable JsonToken token) {
		if (token == null) {
			return "the end of the input";
		}
		return switch (token) {
			case START_OBJECT, END_OBJECT, PROPERTY_NAME -> "an object";
			case START_ARRAY, END_ARRAY -> "an array";
			case VALUE_STRING -> "a string";
			case VALUE_NUMBER_INT -> "an integer";
			case VALUE_NUMBER_FLOAT -> "a decimal number";
			case VALUE_TRUE, VALUE_FALSE -> "true or false";
			case VALUE_NULL -> "null";
			default -> "an unsupported value";
		};
	}

	/**
	 * Says that a value of the wrong kind was found, such as
	 * {@code expected an integer but got a string}.
	 * @param type the Java type bound to
	 * @param token the token the value started with
	 * @return the words
	 */
	static String mismatch(JavaType type, @Nullable JsonToken token) {
		String expected = expected(type);
		if (token == JsonToken.END_OBJECT) {
			// The object ended without the property: Jackson reports the gap, not a value
			return "is required: expected " + expected;
		}
		if (token == JsonToken.VALUE_STRING) {
			if (type.isEnumType()) {
				return "expected " + expected + " but got another string";
			}
			if (expected.contains("string")) {
				return "expected " + expected + " but got a string in another format";
			}
		}
		return "expected " + expected + " but got " + found(token);
	}

	private static String describe(JavaType type, boolean plural) {
		Class<?> raw = type.getRawClass();
		if (type.isReferenceType()) {
			return describe(type.getReferencedType(), plural);
		}
		if (INTEGERS.contains(raw)) {
			return plural ? "integers" : "an integer";
		}
		if (NUMBERS.contains(raw)) {
			return plural ? "numbers" : "a number";
		}
		if (BOOLEANS.contains(raw)) {
			return plural ? "booleans (true or false)" : "true or false";
		}
		if (raw == char.class || raw == Character.class) {
			return plural ? "single-character strings" : "a single-character string";
		}
		if (raw.isEnum()) {
			String constants = Arrays.stream(raw.getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name())
				.collect(Collectors.joining(", ", "[", "]"));
			return plural ? "strings, each one of " + constants : "one of " + constants;
		}
		if (raw == byte[].class) {
			return plural ? "Base64 strings" : "a Base64 string";
		}
		if (type.isArrayType() || type.isCollectionLikeType()) {
			return (plural ? "arrays of " : "an array of ") + describe(type.getContentType(), true);
		}
		if (type.isMapLikeType()) {
			return plural ? "objects" : "an object";
		}
		if (raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
			return plural ? "JSON values" : "any JSON value";
		}
		String time = describeTime(raw, plural);
		if (time != null) {
			return time;
		}
		if (CharSequence.class.isAssignableFrom(raw) || raw == char[].class || STRINGS.contains(raw)
				|| raw.getPackageName().equals("java.time")) {
			return plural ? "strings" : "a string";
		}
		return plural ? "objects" : "an object";
	}

	private static @Nullable String describeTime(Class<?> type, boolean plural) {
		String kind;
		String example;
		if (type == LocalDate.class) {
			kind = "date";
			example = "2025-01-31";
		}
		else if (type == LocalDateTime.class) {
			kind = "local date-time";
			example = "2025-01-31T13:45:00";
		}
		else if (type == Instant.class || type == OffsetDateTime.class || type == ZonedDateTime.class) {
			kind = "date-time";
			example = "2025-01-31T13:45:00Z";
		}
		else if (type == LocalTime.class) {
			kind = "time";
			example = "13:45:00";
		}
		else if (type == Duration.class) {
			kind = "duration";
			example = "PT30S";
		}
		else {
			return null;
		}
		return (plural ? "ISO-8601 " + kind + " strings" : "an ISO-8601 " + kind + " string") + " such as " + example;
	}

}
