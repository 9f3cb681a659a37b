package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import dev.agentmiddleware.binding.ArgumentLimits;
import dev.agentmiddleware.binding.InvalidToolArgumentsException;
import dev.agentmiddleware.binding.JsonArgumentBinder;
import dev.agentmiddleware.binding.ToolParameter;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.entry;

class ToolMethodSchemaTests {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	@Test
	void describesArgumentsObjectOfDraft202012WithOnePropertyPerParameter() throws Exception {
		JsonNode schema = schemaOf("plan");
		assertThat(schema.get("$schema").asString()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
		assertThat(schema.get("type").asString()).isEqualTo("object");
		assertThat(schema.get("properties").propertyNames()).containsExactly("city", "days", "stops", "unit", "origin",
				"note");
		assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
	}

	@Test
	void describesEachParameterTypeAndDescription() throws Exception {
		JsonNode properties = schemaOf("plan").get("properties");
		assertThat(properties.get("city").get("type").asString()).isEqualTo("string");
		assertThat(properties.get("city").get("description").asString()).isEqualTo("City name, e.g. Lisbon");
		assertThat(properties.get("days").get("type").asString()).isEqualTo("integer");
		assertThat(properties.get("stops").get("type").asString()).isEqualTo("array");
		assertThat(properties.get("stops").get("items").get("type").asString()).isEqualTo("string");
		assertThat(properties.get("unit").get("type").asString()).isEqualTo("string");
		assertThat(properties.get("unit").get("enum").valueStream().map(JsonNode::asString)).containsExactly("CELSIUS",
				"FAHRENHEIT");
		assertThat(properties.get("note").has("description")).isFalse();
	}

	@Test
	void describesRecordParameterAsClosedObjectWithRequiredPrimitives() throws Exception {
		JsonNode origin = schemaOf("plan").get("properties").get("origin");
		assertThat(origin.get("type").asString()).isEqualTo("object");
		assertThat(origin.get("description").asString()).isEqualTo("Where to start");
		assertThat(origin.get("properties").propertyNames()).containsExactly("lat", "lon", "label");
		assertThat(origin.get("properties").get("lat").get("type").asString()).isEqualTo("number");
		assertThat(origin.get("required").valueStream().map(JsonNode::asString)).containsExactlyInAnyOrder("lat",
				"lon");
		assertThat(origin.get("additionalProperties").asBoolean()).isFalse();
	}

	@Test
	void requiresParametersUnlessMarkedOptionalButAlwaysPrimitives() throws Exception {
		JsonNode schema = schemaOf("plan");
		assertThat(schema.get("required").valueStream().map(JsonNode::asString)).containsExactly("city", "days",
				"stops", "unit", "origin");
		assertThat(schemaOf("count").get("required").valueStream().map(JsonNode::asString)).containsExactly("limit");
		assertThat(schemaOf("search").get("required")).isEmpty();
	}

	@Test
	void describesOptionalParameterAsItsValueType() throws Exception {
		assertThat(schemaOf("search").get("properties").get("query").get("type").asString()).isEqualTo("string");
	}

	@Test
	void definesTypeUsedByTwoParametersOnceAndKeepsTheirOwnDescriptions() throws Exception {
		JsonNode schema = schemaOf("route");
		JsonNode from = schema.get("properties").get("from");
		JsonNode to = schema.get("properties").get("to");
		assertThat(from.get("$ref").asString()).isEqualTo("#/$defs/Point");
		assertThat(to.get("$ref").asString()).isEqualTo("#/$defs/Point");
		assertThat(from.get("description").asString()).isEqualTo("Start");
		assertThat(to.get("description").asString()).isEqualTo("End");
		assertThat(schema.get("$defs").get("Point").get("type").asString()).isEqualTo("object");
	}

	@Test
	void describesToolWithoutParametersAsEmptyObject() throws Exception {
		JsonNode schema = schemaOf("ping");
		assertThat(schema.get("properties")).isEmpty();
		assertThat(schema.get("required")).isEmpty();
		assertThat(schema.has("$defs")).isFalse();
	}

	@Test
	void listsParametersForTheBinderInDeclarationOrder() throws Exception {
		List<ToolParameter> parameters = ToolMethodSchema.of(method("plan")).parameters();
		assertThat(parameters).extracting(ToolParameter::name)
			.containsExactly("city", "days", "stops", "unit", "origin", "note");
		assertThat(parameters.get(0))
			.isEqualTo(new ToolParameter("city", String.class, "City name, e.g. Lisbon", true));
		assertThat(parameters.get(2).type()).isEqualTo(method("plan").getGenericParameterTypes()[2]);
		assertThat(parameters.get(5).required()).isFalse();
		assertThat(ToolMethodSchema.of(method("count")).parameters().get(0).required()).isTrue();
		assertThat(ToolMethodSchema.of(method("search")).parameters().get(0).required()).isFalse();
	}

	@Test
	void parametersFeedABinderThatAcceptsWhatTheSchemaDescribes() throws Exception {
		JsonArgumentBinder binder = new JsonArgumentBinder("plan", ToolMethodSchema.of(method("plan")).parameters(),
				MAPPER, ArgumentLimits.DEFAULTS);
		Map<String, Object> arguments = binder.bind("""
				{"city":"Lisbon","days":2,"stops":["Sintra"],"unit":"CELSIUS","origin":{"lat":1,"lon":2}}""");
		assertThat(arguments).containsExactly(entry("city", "Lisbon"), entry("days", 2),
				entry("stops", List.of("Sintra")), entry("unit", Unit.CELSIUS), entry("origin", new Point(1, 2, null)),
				entry("note", null));
	}

	@Test
	void failsNamingTheMethodWhenParameterNamesWereNotCompiled(@TempDir Path classes) throws Exception {
		Path source = classes.resolve("NamelessTools.java");
		Files.writeString(source, """
				public class NamelessTools {
					@dev.agentmiddleware.spring.AgentTool
					public String getWeather(String city, int days) {
						return city;
					}
				}
				""");
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		String classpath = location(AgentTool.class) + java.io.File.pathSeparator + location(SafetyLevel.class);
		int status = compiler.run(null, null, null, "-proc:none", "-classpath", classpath, "-d", classes.toString(),
				source.toString());
		assertThat(status).isZero();
		try (URLClassLoader loader = new URLClassLoader(new URL[] { classes.toUri().toURL() },
				getClass().getClassLoader())) {
			Method method = loader.loadClass("NamelessTools").getMethod("getWeather", String.class, int.class);
			assertThat(method.getParameters()[0].getName()).isEqualTo("arg0");
			assertThatIllegalStateException().isThrownBy(() -> ToolMethodSchema.of(method))
				.withMessageContaining("NamelessTools.getWeather")
				.withMessageContaining("'-parameters'");
		}
	}

	@Test
	void beanValidationConstraintsOnParametersAppearInTheSchema() throws Exception {
		JsonNode schema = schemaOf("book");
		JsonNode properties = schema.get("properties");
		assertThat(properties.get("days").get("minimum").asInt()).isEqualTo(1);
		assertThat(properties.get("days").get("maximum").asInt()).isEqualTo(14);
		assertThat(properties.get("city").get("minLength").asInt()).isEqualTo(2);
		assertThat(properties.get("city").get("maxLength").asInt()).isEqualTo(80);
		assertThat(properties.get("code").get("pattern").asString()).isEqualTo("[A-Z]{3}");
		assertThat(properties.get("name").get("minLength").asInt()).isEqualTo(1);
		assertThat(properties.get("guests").get("minItems").asInt()).isEqualTo(1);
		assertThat(properties.get("guests").get("maxItems").asInt()).isEqualTo(4);
		assertThat(properties.get("price").get("exclusiveMinimum").decimalValue()).isEqualByComparingTo("0");
		assertThat(properties.get("price").get("maximum").decimalValue()).isEqualByComparingTo("999.99");
		assertThat(properties.get("rooms").get("exclusiveMinimum").asInt()).isZero();
		assertThat(properties.get("contact").get("format").asString()).isEqualTo("email");
		assertThat(properties.get("limit").get("minimum").asInt()).isEqualTo(1);
		assertThat(schema.get("required").valueStream().map(JsonNode::asString)).contains("name", "code");
	}

	@Test
	void beanValidationConstraintsOnFieldsOfParameterTypesAppearInTheSchema() throws Exception {
		JsonNode stay = schemaOf("stay").get("properties").get("stay");
		assertThat(stay.get("properties").get("nights").get("minimum").asInt()).isEqualTo(1);
		assertThat(stay.get("properties").get("nights").get("maximum").asInt()).isEqualTo(30);
		assertThat(stay.get("properties").get("hotel").get("minLength").asInt()).isEqualTo(1);
		assertThat(stay.get("required").valueStream().map(JsonNode::asString)).contains("hotel");
	}

	@Test
	void definesObjectTypeUsedTwiceInsideOneParameterOnce() throws Exception {
		JsonNode schema = schemaOf("trip");
		JsonNode leg = schema.get("properties").get("leg");
		assertThat(leg.get("properties").get("from").get("$ref").asString()).isEqualTo("#/$defs/Point");
		assertThat(leg.get("properties").get("to").get("$ref").asString()).isEqualTo("#/$defs/Point");
		assertThat(schema.get("$defs").propertyNames()).containsExactly("Point");
	}

	@Test
	void inlinesObjectTypeUsedOnce() throws Exception {
		JsonNode origin = schemaOf("plan").get("properties").get("origin");
		assertThat(origin.has("$ref")).isFalse();
		assertThat(schemaOf("plan").has("$defs")).isFalse();
	}

	@Test
	void parameterDeclaredWithHeaderIsMarkedForMcpClientsToMirrorIt() throws Exception {
		JsonNode properties = schemaOf("order").get("properties");
		assertThat(properties.get("region").get("x-mcp-header").asString()).isEqualTo("Region");
		assertThat(properties.get("priority").get("x-mcp-header").asString()).isEqualTo("Priority");
		assertThat(properties.get("note").has("x-mcp-header")).isFalse();
	}

	@Test
	void headerOnParameterOfNoPrimitiveJsonTypeFailsNamingMethodParameterAndHeader() {
		assertThatIllegalStateException().isThrownBy(() -> ToolMethodSchema.of(method("headerOnObject")))
			.withMessageContaining(
					"@AgentToolParam(header = \"Origin\") of parameter 'origin' of " + "SampleTools.headerOnObject")
			.withMessageContaining("not string, number, integer or boolean");
	}

	@Test
	void headerThatIsNoHttpTokenFailsNamingIt() {
		assertThatIllegalStateException().isThrownBy(() -> ToolMethodSchema.of(method("headerWithSpace")))
			.withMessageContaining("\"My Region\"")
			.withMessageContaining("is not an HTTP header name");
	}

	@Test
	void headerRepeatedWhateverItsCaseFailsNamingIt() {
		assertThatIllegalStateException().isThrownBy(() -> ToolMethodSchema.of(method("headerTwice")))
			.withMessageContaining("parameter 'other'")
			.withMessageContaining("repeats the header of another parameter");
	}

	@Test
	void declaredSchemaIsPublishedAsWritten() throws Exception {
		ToolMethodSchema declared = ToolMethodSchema.declared(method("contact"), "contact",
				"classpath:schemas/contact.json");
		JsonNode schema = MAPPER.readTree(declared.inputSchema());
		assertThat(schema.get("$defs").get("address").get("$anchor").asString()).isEqualTo("addressDef");
		assertThat(schema.get("properties").get("address").get("$ref").asString()).isEqualTo("#/$defs/address");
		assertThat(schema.get("allOf").get(0).get("anyOf")).hasSize(2);
		assertThat(schema.get("additionalProperties").asBoolean()).isFalse();
	}

	@Test
	void declaredSchemaGivesParametersTheirTypesItsRequirementsAndDescriptions() throws Exception {
		List<ToolParameter> parameters = ToolMethodSchema
			.declared(method("contact"), "contact", "classpath:schemas/contact.json")
			.parameters();
		assertThat(parameters).containsExactly(new ToolParameter("name", String.class, "Full name", true),
				new ToolParameter("address", Point.class, "", false),
				new ToolParameter("email", String.class, "", true));
	}

	@Test
	void declaredSchemaFeedsABinderThatBindsReferencedTypesAndEnforcesItsRequirements() throws Exception {
		ToolMethodSchema declared = ToolMethodSchema.declared(method("contact"), "contact",
				"classpath:schemas/contact.json");
		JsonArgumentBinder binder = new JsonArgumentBinder("contact", declared.parameters(), MAPPER,
				ArgumentLimits.DEFAULTS);
		assertThat(binder.bind("{\"name\":\"Ada\",\"email\":\"ada@example.com\","
				+ "\"address\":{\"lat\":1.5,\"lon\":2,\"label\":\"home\"}}"))
			.containsEntry("address", new Point(1.5, 2, "home"));
		assertThatExceptionOfType(InvalidToolArgumentsException.class)
			.isThrownBy(() -> binder.bind("{\"name\":\"Ada\"}"))
			.withMessageContaining("email");
		assertThatExceptionOfType(InvalidToolArgumentsException.class).isThrownBy(
				() -> binder.bind("{\"name\":\"Ada\",\"email\":\"a\",\"address\":{\"lat\":1,\"lon\":2,\"zip\":\"x\"}}"))
			.withMessageContaining("address");
	}

	@Test
	void declaredSchemaWithPropertyThatIsNoParameterFailsNamingToolPropertyAndParameters() {
		assertThatExceptionOfType(InvalidToolConfigurationException.class)
			.isThrownBy(() -> ToolMethodSchema.declared(method("contact"), "contact",
					"classpath:schemas/contact-with-fax.json"))
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("@AgentTool(inputSchema) of tool 'contact'");
				assertThat(ex.getValue()).isEqualTo("classpath:schemas/contact-with-fax.json");
				assertThat(ex.getReason()).contains("tool 'contact'", "SampleTools.contact",
						"property 'fax' is not a parameter", "parameters: name, address, email");
			});
	}

	@Test
	void declaredSchemaWithoutRequiredParameterUnderRequiredFailsNamingIt() {
		assertThatExceptionOfType(InvalidToolConfigurationException.class)
			.isThrownBy(() -> ToolMethodSchema.declared(method("contact"), "contact",
					"classpath:schemas/contact-name-optional.json"))
			.satisfies((ex) -> assertThat(ex.getReason()).contains("tool 'contact'",
					"does not list parameter 'name' under \"required\"",
					"expected a property 'name' listed under \"required\""));
	}

	@Test
	void declaredSchemaWithoutPropertyForRequiredParameterFailsNamingIt() {
		assertThatExceptionOfType(InvalidToolConfigurationException.class)
			.isThrownBy(() -> ToolMethodSchema.declared(method("plan"), "plan", "classpath:schemas/contact.json"))
			.satisfies(
					(ex) -> assertThat(ex.getReason()).contains("tool 'plan'", "property 'name' is not a parameter"));
		assertThatExceptionOfType(InvalidToolConfigurationException.class)
			.isThrownBy(() -> ToolMethodSchema.declared(method("route"), "route",
					"classpath:schemas/contact-name-optional.json"))
			.satisfies((ex) -> assertThat(ex.getReason()).contains("property 'name' is not a parameter"));
		assertThatExceptionOfType(InvalidToolConfigurationException.class)
			.isThrownBy(() -> ToolMethodSchema.declared(method("contactByName"), "contact_by_name",
					"classpath:schemas/contact-name-optional.json"))
			.satisfies((ex) -> assertThat(ex.getReason()).contains("it has no property for parameter 'email'",
					"SampleTools.contactByName requires"));
	}

	@Test
	void declaredSchemaThatIsMissingOrNotAnObjectSchemaFailsNamingTheLocation() {
		assertThatExceptionOfType(InvalidToolConfigurationException.class)
			.isThrownBy(() -> ToolMethodSchema.declared(method("contact"), "contact", "classpath:schemas/absent.json"))
			.satisfies((ex) -> assertThat(ex.getReason()).contains("no resource is at this location"));
		assertThatExceptionOfType(InvalidToolConfigurationException.class).isThrownBy(
				() -> ToolMethodSchema.declared(method("contact"), "contact", "classpath:schemas/not-an-object.json"))
			.satisfies((ex) -> assertThat(ex.getReason()).contains("expected a JSON object with \"type\": \"object\""));
	}

	private static String location(Class<?> type) throws Exception {
		return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
	}

	private static JsonNode schemaOf(String methodName) throws Exception {
		return MAPPER.readTree(ToolMethodSchema.of(method(methodName)).inputSchema());
	}

	private static Method method(String name) {
		for (Method method : SampleTools.class.getDeclaredMethods()) {
			if (method.getName().equals(name)) {
				return method;
			}
		}
		throw new IllegalArgumentException(name);
	}

	enum Unit {

		CELSIUS, FAHRENHEIT

	}

	record Point(double lat, double lon, String label) {
	}

	record Stay(@jakarta.validation.constraints.NotBlank String hotel,
			@jakarta.validation.constraints.Min(1) @jakarta.validation.constraints.Max(30) int nights) {
	}

	record Leg(Point from, Point to) {
	}

	static class SampleTools {

		@AgentTool
		String order(@AgentToolParam(description = "Region", header = "Region") String region,
				@AgentToolParam(header = "Priority", required = false) Integer priority,
				@AgentToolParam(required = false) String note) {
			return region;
		}

		@AgentTool
		String headerOnObject(@AgentToolParam(header = "Origin") Point origin) {
			return "";
		}

		@AgentTool
		String headerWithSpace(@AgentToolParam(header = "My Region") String region) {
			return region;
		}

		@AgentTool
		String headerTwice(@AgentToolParam(header = "Region") String region,
				@AgentToolParam(header = "region") String other) {
			return region;
		}

		@AgentTool
		String plan(@AgentToolParam(description = "City name, e.g. Lisbon") String city,
				@AgentToolParam(description = "Days to plan") int days, List<String> stops, Unit unit,
				@AgentToolParam(description = "Where to start") Point origin,
				@AgentToolParam(required = false) String note) {
			return city;
		}

		@AgentTool
		int count(@AgentToolParam(description = "Largest count", required = false) int limit) {
			return limit;
		}

		@AgentTool
		String search(Optional<String> query) {
			return "";
		}

		@AgentTool
		String route(@AgentToolParam(description = "Start") Point from, @AgentToolParam(description = "End") Point to) {
			return "";
		}

		@AgentTool
		String book(@jakarta.validation.constraints.Min(1) @jakarta.validation.constraints.Max(14) int days,
				@jakarta.validation.constraints.Size(min = 2, max = 80) String city,
				@jakarta.validation.constraints.NotNull @jakarta.validation.constraints.Pattern(
						regexp = "[A-Z]{3}") String code,
				@AgentToolParam(required = false) @jakarta.validation.constraints.NotBlank String name,
				@jakarta.validation.constraints.NotEmpty @jakarta.validation.constraints.Size(
						max = 4) List<String> guests,
				@jakarta.validation.constraints.Positive @jakarta.validation.constraints.DecimalMax("999.99") java.math.BigDecimal price,
				@jakarta.validation.constraints.Positive int rooms,
				@jakarta.validation.constraints.Email String contact,
				@jakarta.validation.constraints.Min(1) Optional<Integer> limit) {
			return "";
		}

		@AgentTool
		String stay(Stay stay) {
			return "";
		}

		@AgentTool
		String trip(Leg leg) {
			return "";
		}

		@AgentTool(inputSchema = "classpath:schemas/contact.json")
		String contact(String name, @AgentToolParam(required = false) Point address, String email) {
			return name;
		}

		@AgentTool
		String contactByName(@AgentToolParam(required = false) String name,
				@AgentToolParam(required = false) Point address, String email) {
			return "";
		}

		@AgentTool
		String ping() {
			return "pong";
		}

	}

}
