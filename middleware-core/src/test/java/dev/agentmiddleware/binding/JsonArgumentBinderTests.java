package dev.agentmiddleware.binding;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.entry;

class JsonArgumentBinderTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final String SECRET = "s3cr3t-value";

	private final JsonArgumentBinder weather = binder("get_weather", required("city", String.class),
			required("days", int.class), optional("unit", Unit.class));

	@Test
	void bindsArgumentsInDeclarationOrderWhateverTheJsonOrder() {
		Map<String, Object> arguments = this.weather.bind("{\"unit\":\"FAHRENHEIT\",\"days\":3,\"city\":\"Lisbon\"}");
		assertThat(arguments).containsExactly(entry("city", "Lisbon"), entry("days", 3),
				entry("unit", Unit.FAHRENHEIT));
	}

	@Test
	void returnsAnUnmodifiableMap() {
		Map<String, Object> arguments = this.weather.bind("{\"city\":\"Lisbon\",\"days\":3}");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> arguments.put("city", "Porto"));
	}

	@Test
	void bindsGenericCollectionsRecordsAndEnums() {
		JsonArgumentBinder binder = binder("plan", required("days", type(new TypeReference<List<Integer>>() {
		})), required("labels", type(new TypeReference<Map<String, String>>() {
		})), required("origin", Point.class), required("route", type(new TypeReference<List<Point>>() {
		})), required("unit", Unit.class), required("start", LocalDate.class));
		Map<String, Object> arguments = binder.bind("""
				{"days":[1,2,3],"labels":{"a":"x","b":"y"},"origin":{"lat":38.7,"lon":-9.1},
				 "route":[{"lat":1,"lon":2}],"unit":"CELSIUS","start":"2025-01-31"}""");
		assertThat(arguments.get("days")).isEqualTo(List.of(1, 2, 3));
		assertThat(arguments.get("labels")).isEqualTo(Map.of("a", "x", "b", "y"));
		assertThat(arguments.get("origin")).isEqualTo(new Point(38.7, -9.1));
		assertThat(arguments.get("route")).isEqualTo(List.of(new Point(1, 2)));
		assertThat(arguments.get("unit")).isEqualTo(Unit.CELSIUS);
		assertThat(arguments.get("start")).isEqualTo(LocalDate.of(2025, 1, 31));
	}

	@Test
	void bindsMissingOptionalParameterToNull() {
		Map<String, Object> arguments = this.weather.bind("{\"city\":\"Lisbon\",\"days\":3}");
		assertThat(arguments).containsExactly(entry("city", "Lisbon"), entry("days", 3), entry("unit", null));
	}

	@Test
	void bindsOptionalParameterGivenAsNullToNull() {
		Map<String, Object> arguments = this.weather.bind("{\"city\":\"Lisbon\",\"days\":3,\"unit\":null}");
		assertThat(arguments).containsEntry("unit", null);
	}

	@Test
	void bindsMissingOptionalTypedParameterToEmpty() {
		JsonArgumentBinder binder = binder("search", required("query", String.class),
				optional("limit", type(new TypeReference<Optional<Integer>>() {
				})));
		assertThat(binder.bind("{\"query\":\"q\"}")).containsEntry("limit", Optional.empty());
		assertThat(binder.bind("{\"query\":\"q\",\"limit\":5}")).containsEntry("limit", Optional.of(5));
	}

	@Test
	void bindsNullBlankOrEmptyInputOfToolWithoutRequiredParametersToEmptyValues() {
		JsonArgumentBinder none = binder("list_files");
		assertThat(none.bind(null)).isEmpty();
		assertThat(none.bind("  ")).isEmpty();
		assertThat(none.bind("{}")).isEmpty();
		assertThat(none.bind("null")).isEmpty();
		JsonArgumentBinder optionalOnly = binder("list_files", optional("glob", String.class));
		assertThat(optionalOnly.bind(null)).containsExactly(entry("glob", null));
		assertThat(optionalOnly.bind("{}")).containsExactly(entry("glob", null));
	}

	@Test
	void coercesNumericStringsAsTheMapperDoes() {
		assertThat(this.weather.bind("{\"city\":\"Lisbon\",\"days\":\"3\"}")).containsEntry("days", 3);
	}

	@Test
	void readsWithTheMappersReadFeatures() {
		JsonMapper lenient = JsonMapper.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();
		JsonArgumentBinder binder = new JsonArgumentBinder("get_weather", List.of(required("city", String.class)),
				lenient, ArgumentLimits.DEFAULTS);
		assertThat(binder.bind("{/* where */ \"city\":\"Lisbon\"}")).containsEntry("city", "Lisbon");
		assertInvalid(binder("get_weather", required("city", String.class)), "{/* where */ \"city\":\"Lisbon\"}", null,
				"malformed JSON at line 1, column 2: invalid JSON");
	}

	@Test
	void rejectsMalformedJsonWithLineAndColumn() {
		assertInvalid(this.weather, "{\"city\": \"Lisbon\",\n \"days\": }", null,
				"malformed JSON at line 2, column 10: expected a value: a string in double quotes, a number, an object, an array, true, false or null");
	}

	@Test
	void rejectsUnquotedValueWithoutEchoingIt() {
		InvalidToolArgumentsException ex = assertInvalid(this.weather, "{\"city\": " + SECRET + "}", null,
				"malformed JSON at line 1, column 10: expected a value: a string in double quotes, a number, an object, an array, true, false or null");
		assertThat(ex.getMessage()).doesNotContain("s3cr3t");
	}

	@Test
	void rejectsTruncatedJson() {
		assertInvalid(this.weather, "{\"city\":\"Lisb", null,
				"malformed JSON at line 1, column 14: unexpected end of input; the JSON is cut short");
	}

	@Test
	void rejectsMissingCommaAndUnquotedName() {
		assertInvalid(this.weather, "{\"city\":\"Lisbon\" \"days\":3}", null,
				"malformed JSON at line 1, column 18: expected ',' or '}' after a property value");
		assertInvalid(this.weather, "{city:\"Lisbon\"}", null,
				"malformed JSON at line 1, column 2: expected a property name in double quotes");
	}

	@Test
	void rejectsGarbageInsteadOfAnObject() {
		assertInvalid(this.weather, SECRET, null, "malformed JSON at line 1, column 1: expected a JSON object");
	}

	@Test
	void rejectsContentAfterTheArgumentsObject() {
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":3} {}", null,
				"malformed JSON at line 1, column 28: unexpected content after the arguments object");
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":3}}", null,
				"malformed JSON at line 1, column 27: unexpected content after the arguments object");
	}

	@Test
	void rejectsTopLevelArray() {
		assertInvalid(this.weather, "[\"Lisbon\",3]", null, "expected a JSON object of arguments but got an array");
	}

	@Test
	void rejectsTopLevelString() {
		InvalidToolArgumentsException ex = assertInvalid(this.weather, "\"" + SECRET + "\"", null,
				"expected a JSON object of arguments but got a string");
		assertThat(ex.getMessage()).doesNotContain(SECRET);
	}

	@Test
	void rejectsMissingRequiredParameterDescribingTheExpectedType() {
		assertInvalid(this.weather, "{\"days\":3}", "city", "is required: expected a string");
		assertInvalid(this.weather, "{\"city\":\"Lisbon\"}", "days", "is required: expected an integer");
		assertInvalid(this.weather, null, "city", "is required: expected a string");
	}

	@Test
	void describesExpectedTypesInWords() {
		JsonArgumentBinder binder = binder("t", required("flag", boolean.class), required("ratio", double.class),
				required("ids", type(new TypeReference<List<Long>>() {
				})), required("matrix", int[][].class), required("unit", Unit.class),
				required("units", type(new TypeReference<List<Unit>>() {
				})), required("point", Point.class), required("labels", type(new TypeReference<Map<String, String>>() {
				})), required("start", LocalDate.class));
		assertInvalid(binder, "{}", "flag", "is required: expected true or false");
		assertInvalid(binder, "{\"flag\":true}", "ratio", "is required: expected a number");
		String prefix = "{\"flag\":true,\"ratio\":1";
		assertInvalid(binder, prefix + "}", "ids", "is required: expected an array of integers");
		prefix += ",\"ids\":[]";
		assertInvalid(binder, prefix + "}", "matrix", "is required: expected an array of arrays of integers");
		prefix += ",\"matrix\":[]";
		assertInvalid(binder, prefix + "}", "unit", "is required: expected one of [CELSIUS, FAHRENHEIT]");
		prefix += ",\"unit\":\"CELSIUS\"";
		assertInvalid(binder, prefix + "}", "units",
				"is required: expected an array of strings, each one of [CELSIUS, FAHRENHEIT]");
		prefix += ",\"units\":[]";
		assertInvalid(binder, prefix + "}", "point", "is required: expected an object");
		prefix += ",\"point\":{\"lat\":1,\"lon\":2}";
		assertInvalid(binder, prefix + "}", "labels", "is required: expected an object");
		prefix += ",\"labels\":{}";
		assertInvalid(binder, prefix + "}", "start",
				"is required: expected an ISO-8601 date string such as 2025-01-31");
	}

	@Test
	void rejectsWrongTypeNamingTheTokenKindNotTheValue() {
		InvalidToolArgumentsException ex = assertInvalid(this.weather,
				"{\"city\":\"Lisbon\",\"days\":\"" + SECRET + "\"}", "days", "expected an integer but got a string");
		assertThat(ex.getMessage()).doesNotContain(SECRET);
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":[3]}", "days",
				"expected an integer but got an array");
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":true}", "days",
				"expected an integer but got true or false");
		assertInvalid(this.weather, "{\"city\":{\"name\":\"Lisbon\"},\"days\":3}", "city",
				"expected a string but got an object");
	}

	@Test
	void rejectsDecimalForIntegerInsteadOfTruncating() {
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":2.5}", "days",
				"expected an integer but got a decimal number");
	}

	@Test
	void rejectsUnknownEnumConstantWithoutEchoingIt() {
		InvalidToolArgumentsException ex = assertInvalid(this.weather,
				"{\"city\":\"Lisbon\",\"days\":3,\"unit\":\"" + SECRET + "\"}", "unit",
				"expected one of [CELSIUS, FAHRENHEIT] but got another string");
		assertThat(ex.getMessage()).doesNotContain(SECRET);
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":3,\"unit\":1}", "unit",
				"expected one of [CELSIUS, FAHRENHEIT] but got an integer");
	}

	@Test
	void rejectsStringInAnotherFormat() {
		JsonArgumentBinder binder = binder("book", required("start", LocalDate.class));
		InvalidToolArgumentsException ex = assertInvalid(binder, "{\"start\":\"" + SECRET + "\"}", "start",
				"expected an ISO-8601 date string such as 2025-01-31 but got a string in another format");
		assertThat(ex.getMessage()).doesNotContain(SECRET);
	}

	@Test
	void rejectsWrongTypeInsideAValueWithItsPath() {
		JsonArgumentBinder binder = binder("route", required("origin", Point.class),
				optional("days", type(new TypeReference<List<Integer>>() {
				})), optional("scores", type(new TypeReference<Map<String, Integer>>() {
				})));
		assertInvalid(binder, "{\"origin\":{\"lat\":\"" + SECRET + "\",\"lon\":1}}", "origin",
				"at 'lat': expected a number but got a string");
		assertInvalid(binder, "{\"origin\":{\"lat\":null,\"lon\":1}}", "origin",
				"at 'lat': expected a number but got null");
		assertInvalid(binder, "{\"origin\":{\"lat\":1,\"lon\":1},\"days\":[1,\"x\"]}", "days",
				"at '[1]': expected an integer but got a string");
		InvalidToolArgumentsException ex = assertInvalid(binder,
				"{\"origin\":{\"lat\":1,\"lon\":1},\"scores\":{\"" + SECRET + "\":\"x\"}}", "scores",
				"at '[key]': expected an integer but got a string");
		assertThat(ex.getMessage()).doesNotContain(SECRET);
	}

	@Test
	void rejectsMissingPrimitiveInsideAValue() {
		JsonArgumentBinder binder = binder("route", required("origin", Point.class));
		assertInvalid(binder, "{\"origin\":{\"lat\":1}}", "origin", "at 'lon': is required: expected a number");
	}

	@Test
	void rejectsUnknownPropertyInsideAValue() {
		JsonArgumentBinder binder = binder("route", required("origin", Point.class));
		assertInvalid(binder, "{\"origin\":{\"lat\":1,\"lon\":1,\"alt\":3}}", "origin",
				"'alt' is not a property; expected one of: lat, lon");
	}

	@Test
	void rejectsValueThatItsTypeRefuses() {
		JsonArgumentBinder binder = binder("forecast", required("range", Range.class));
		InvalidToolArgumentsException ex = assertInvalid(binder, "{\"range\":{\"from\":5,\"to\":1}}", "range",
				"the value is not a valid Range");
		assertThat(ex).hasMessageNotContaining("from 5");
	}

	@Test
	void rejectsUnknownParameterListingTheKnownOnes() {
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"dayz\":3}", "dayz",
				"is not a parameter of this tool; expected one of: city, days, unit");
		assertInvalid(binder("list_files"), "{\"path\":\"/\"}", "path",
				"is not a parameter of this tool; this tool takes no arguments");
	}

	@Test
	void shortensAnOverlongUnknownParameterName() {
		String name = "x".repeat(1000);
		InvalidToolArgumentsException ex = assertThatExceptionOfType(InvalidToolArgumentsException.class)
			.isThrownBy(() -> this.weather.bind("{\"" + name + "\":1}"))
			.actual();
		assertThat(ex.parameter()).hasSize(67).endsWith("...");
	}

	@Test
	void anIntegerThatOverflowsItsParameterNamesTheParameterAndTheRange() {
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":2147483648}", "days",
				"is out of range: expected an integer from -2147483648 to 2147483647");
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":-99999999999999999999999}", "days",
				"is out of range: expected an integer from -2147483648 to 2147483647");
		assertInvalid(binder("wait", required("millis", long.class)), "{\"millis\":9223372036854775808}", "millis",
				"is out of range: expected an integer from -9223372036854775808 to 9223372036854775807");
		assertInvalid(binder("wait", required("count", Short.class)), "{\"count\":40000}", "count",
				"is out of range: expected an integer from -32768 to 32767");
		assertInvalid(binder("wait", required("flags", byte.class)), "{\"flags\":300}", "flags",
				"is out of range: expected an integer from -128 to 127");
	}

	@Test
	void anIntegerThatOverflowsInsideAValueNamesWhere() {
		assertInvalid(binder("forecast", required("range", Range.class)), "{\"range\":{\"from\":1,\"to\":2147483648}}",
				"range", "at 'to': is out of range: expected an integer from -2147483648 to 2147483647");
		assertInvalid(binder("sum", required("values", type(new TypeReference<List<Integer>>() {
		}))), "{\"values\":[1,2,3000000000]}", "values",
				"at '[2]': is out of range: expected an integer from -2147483648 to 2147483647");
	}

	@Test
	void rejectsADuplicateKeyInsideAValueLikeAtTheTop() {
		assertInvalid(binder("move", required("origin", Point.class)), "{\"origin\":{\"lat\":1,\"lon\":2,\"lat\":3}}",
				"origin", "contains a duplicate key");
		assertInvalid(binder("label", required("labels", type(new TypeReference<Map<String, String>>() {
		}))), "{\"labels\":{\"a\":\"x\",\"a\":\"y\"}}", "labels", "contains a duplicate key");
	}

	@Test
	void rejectsDuplicateParameter() {
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":3,\"city\":\"Porto\"}", "city",
				"is given more than once");
	}

	@Test
	void rejectsNullForPrimitiveOrRequiredParameter() {
		assertInvalid(this.weather, "{\"city\":\"Lisbon\",\"days\":null}", "days",
				"is required and must not be null: expected an integer");
		assertInvalid(this.weather, "{\"city\":null,\"days\":1}", "city",
				"is required and must not be null: expected a string");
	}

	@Test
	void treatsPrimitiveParametersAsRequiredEvenWhenDeclaredOptional() {
		JsonArgumentBinder binder = binder("count", optional("limit", int.class));
		assertInvalid(binder, "{}", "limit", "is required: expected an integer");
	}

	@Test
	void rejectsPayloadOverTheLimitBeforeParsingIt() {
		String json = "{\"city\":\"" + "x".repeat(69_989) + "\"}";
		assertThat(json).hasSize(70_000);
		assertInvalid(this.weather, json, null, "payload of 70000 characters exceeds the limit of 65536");
	}

	@Test
	void rejectsPayloadNestedDeeperThanTheLimit() {
		JsonArgumentBinder binder = binder("deep", required("data", Object.class));
		String ok = "{\"data\":" + "[".repeat(31) + "]".repeat(31) + "}";
		assertThat(binder.bind(ok)).containsKey("data");
		String tooDeep = "{\"data\":" + "[".repeat(32) + "]".repeat(32) + "}";
		assertInvalid(binder, tooDeep, "data", "nested deeper than 32 levels");
	}

	@Test
	void appliesCustomLimits() {
		JsonArgumentBinder binder = new JsonArgumentBinder("deep", List.of(required("data", Object.class)), MAPPER,
				new ArgumentLimits(100, 2));
		assertThat(binder.bind("{\"data\":[1]}")).containsEntry("data", List.of(1));
		assertInvalid(binder, "{\"data\":[[1]]}", "data", "nested deeper than 2 levels");
		assertInvalid(binder, "{\"data\":\"" + "x".repeat(100) + "\"}", null,
				"payload of 111 characters exceeds the limit of 100");
	}

	@Test
	void rejectsTwoParametersWithTheSameName() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> binder("t", required("a", String.class), required("a", int.class)))
			.withMessage("Tool 't' declares parameter 'a' twice");
	}

	@Test
	void rejectsInvalidLimits() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ArgumentLimits(0, 1))
			.withMessage("maxPayloadChars must be positive, but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new ArgumentLimits(1, -1))
			.withMessage("maxDepth must be positive, but was -1");
		assertThat(ArgumentLimits.DEFAULTS).isEqualTo(new ArgumentLimits(65_536, 32));
	}

	@Test
	void isSafeToShareBetweenThreads() throws Exception {
		Thread[] threads = new Thread[4];
		Throwable[] failures = new Throwable[threads.length];
		for (int t = 0; t < threads.length; t++) {
			int index = t;
			threads[t] = new Thread(() -> {
				try {
					for (int i = 0; i < 2_000; i++) {
						assertThat(this.weather.bind("{\"days\":" + i + ",\"city\":\"c" + index + "\"}"))
							.containsExactly(entry("city", "c" + index), entry("days", i), entry("unit", null));
					}
				}
				catch (Throwable ex) {
					failures[index] = ex;
				}
			});
			threads[t].start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(failures).containsOnlyNulls();
	}

	private static InvalidToolArgumentsException assertInvalid(JsonArgumentBinder binder, String json, String parameter,
			String problem) {
		InvalidToolArgumentsException ex = assertThatExceptionOfType(InvalidToolArgumentsException.class)
			.isThrownBy(() -> binder.bind(json))
			.actual();
		assertThat(ex.toolName()).isNotNull();
		assertThat(ex.parameter()).isEqualTo(parameter);
		assertThat(ex.problem()).isEqualTo(problem);
		assertThat(ex.getMessage()).doesNotContainIgnoringCase("jackson").doesNotContain("tools.");
		return ex;
	}

	private static JsonArgumentBinder binder(String tool, ToolParameter... parameters) {
		return new JsonArgumentBinder(tool, List.of(parameters), MAPPER, ArgumentLimits.DEFAULTS);
	}

	private static ToolParameter required(String name, java.lang.reflect.Type type) {
		return new ToolParameter(name, type, "", true);
	}

	private static ToolParameter optional(String name, java.lang.reflect.Type type) {
		return new ToolParameter(name, type, "", false);
	}

	private static java.lang.reflect.Type type(TypeReference<?> reference) {
		return reference.getType();
	}

	enum Unit {

		CELSIUS, FAHRENHEIT

	}

	record Point(double lat, double lon) {
	}

	record Range(int from, int to) {

		Range {
			if (from > to) {
				throw new IllegalArgumentException("from " + from + " is after " + to);
			}
		}

	}

}
