package dev.agentmiddleware.autoconfigure.tool;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.RecordingMiddlewareConfiguration;
import dev.agentmiddleware.autoconfigure.RecordingMiddlewareConfiguration.Recorder;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback;
import dev.agentmiddleware.autoconfigure.springai.AgentToolCallback.AgentToolCallbackProvider;
import dev.agentmiddleware.autoconfigure.springai.AgentToolSpringAiAutoConfiguration;
import dev.agentmiddleware.callrecord.ToolCallObserver;
import dev.agentmiddleware.callrecord.ToolCallObserver.ToolCallRecord;
import dev.agentmiddleware.chain.OrderedMiddleware;
import dev.agentmiddleware.chain.ToolInterceptor;
import dev.agentmiddleware.chain.ToolInterceptor.BeforeDecision;
import dev.agentmiddleware.chain.ToolMiddleware;
import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.test.RecordingToolCallObserver;
import dev.agentmiddleware.testsupport.CapturedLog;
import dev.agentmiddleware.tool.CallOutcome;
import dev.agentmiddleware.tool.InvocationSource;
import dev.agentmiddleware.tool.ToolDeniedException;
import dev.agentmiddleware.tool.ToolDescriptor;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.ToolHandler;
import dev.agentmiddleware.tool.ToolInvocation;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class AgentMiddlewareAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AgentMiddlewareAutoConfiguration.class,
				AgentToolAutoConfiguration.class, AgentToolSpringAiAutoConfiguration.class))
		.withUserConfiguration(WeatherConfiguration.class);

	@Test
	void registersEveryAgentToolMethodWithItsDescriptor() {
		this.contextRunner.run((context) -> {
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.tools()).extracting(RegisteredTool::name).containsExactly("get_weather", "set_alarm");
			ToolDescriptor weather = registry.get("get_weather").descriptor();
			assertThat(weather.description()).isEqualTo("Current weather for a city");
			assertThat(weather.safety()).isEqualTo(SafetyLevel.SAFE);
			assertThat(weather.readOnly()).isTrue();
			assertThat(weather.idempotent()).isTrue();
			assertThat(weather.tags()).containsExactly("weather");
			assertThat(weather.resultType()).isEqualTo(String.class);
			JsonNode schema = new JsonMapper().readTree(weather.inputSchema());
			assertThat(schema.get("properties").get("city").get("description").asString()).isEqualTo("City name");
			ToolDescriptor alarm = registry.get("set_alarm").descriptor();
			assertThat(alarm.safety()).as("undeclared safety counts as dangerous").isEqualTo(SafetyLevel.DANGEROUS);
		});
	}

	@Test
	void directJavaCallRunsTheChainExactlyOnce() {
		this.contextRunner.withUserConfiguration(RecordingMiddlewareConfiguration.class).run((context) -> {
			WeatherTools tools = context.getBean(WeatherTools.class);
			assertThat(AopUtils.isCglibProxy(tools)).isTrue();
			assertThat(tools.getWeather("Lisbon")).isEqualTo("Sunny in Lisbon");
			Recorder recorder = context.getBean(Recorder.class);
			assertThat(recorder.calls).hasSize(1);
			assertThat(recorder.calls.get(0).source()).isEqualTo(InvocationSource.JAVA);
			assertThat(recorder.calls.get(0).arguments()).containsExactly(Map.entry("city", "Lisbon"));
			assertThat(context.getBean(WeatherTools.class).executions()).isEqualTo(1);
		});
	}

	@Test
	void toolCallbackRunsTheChainExactlyOnceWithTheSessionFromTheToolContext() {
		this.contextRunner.withUserConfiguration(RecordingMiddlewareConfiguration.class).run((context) -> {
			ToolCallback callback = callback(context.getBean(AgentToolCallbackProvider.class), "get_weather");
			String result = callback.call("{\"city\":\"Porto\"}",
					new ToolContext(Map.of(AgentToolCallback.SESSION_ID_KEY, "conversation-7")));
			assertThat(result).isEqualTo("Sunny in Porto");
			Recorder recorder = context.getBean(Recorder.class);
			assertThat(recorder.calls).hasSize(1);
			assertThat(recorder.calls.get(0).source()).isEqualTo(InvocationSource.SPRING_AI);
			assertThat(recorder.calls.get(0).sessionId()).isEqualTo("conversation-7");
			assertThat(context.getBean(WeatherTools.class).executions()).isEqualTo(1);
		});
	}

	@Test
	void toolCallbackExposesSchemaDescriptionAndReturnDirect() {
		this.contextRunner.run((context) -> {
			ToolCallback[] callbacks = context.getBean(AgentToolCallbackProvider.class).getToolCallbacks();
			assertThat(callbacks).extracting((callback) -> callback.getToolDefinition().name())
				.containsExactly("get_weather", "set_alarm");
			ToolCallback alarm = callbacks[1];
			assertThat(alarm.getToolDefinition().description()).isEqualTo("Sets an alarm");
			assertThat(alarm.getToolMetadata().returnDirect()).isTrue();
			assertThat(alarm.getToolDefinition().inputSchema()).contains("\"minutes\"");
			assertThat(alarm.call("{\"minutes\":5}")).isEqualTo("Done");
		});
	}

	@Test
	void badJsonArgumentsBecomeAClearMessageAndNeverReachTheChainOrTheTool() {
		this.contextRunner.withUserConfiguration(RecordingMiddlewareConfiguration.class).run((context) -> {
			ToolCallback weather = callback(context.getBean(AgentToolCallbackProvider.class), "get_weather");
			assertThat(weather.call("{\"city\":")).contains("get_weather").containsIgnoringCase("malformed JSON");
			assertThat(weather.call("{}")).contains("get_weather", "'city'", "required");
			assertThat(weather.call("{\"city\":[1]}")).contains("'city'", "expected a string");
			assertThat(weather.call("{\"city\":\"Oslo\",\"units\":\"metric\"}")).contains("'units'");
			assertThat(context.getBean(Recorder.class).calls).isEmpty();
			assertThat(context.getBean(WeatherTools.class).executions()).isZero();
		});
	}

	@Test
	void beanValidationConstraintsOnParametersAreCheckedBeforeTheChain() {
		this.contextRunner.withBean(LocalValidatorFactoryBean.class)
			.withUserConfiguration(RecordingMiddlewareConfiguration.class, ValidatedConfiguration.class)
			.run((context) -> {
				ToolCallback booking = callback(context.getBean(AgentToolCallbackProvider.class), "book_table");
				assertThat(booking.call("{\"guests\":30,\"name\":\"Ada\"}")).isEqualTo(
						"Invalid arguments for tool 'book_table', parameter 'guests': must be less than or equal to 12");
				assertThat(booking.call("{\"guests\":2,\"name\":\" \"}")).contains("parameter 'name'",
						"must not be blank");
				assertThat(context.getBean(Recorder.class).calls).isEmpty();
				assertThat(booking.call("{\"guests\":2,\"name\":\"Ada\"}")).isEqualTo("Table for 2 booked for Ada");
				assertThat(context.getBean(Recorder.class).calls).hasSize(1);
			});
	}

	@Test
	void oversizedArgumentsAreRefusedWithTheLimit() {
		this.contextRunner.withPropertyValues("agent.middleware.arguments.max-payload-chars=64").run((context) -> {
			ToolCallback weather = callback(context.getBean(AgentToolCallbackProvider.class), "get_weather");
			String text = weather.call("{\"city\":\"" + "x".repeat(100) + "\"}");
			assertThat(text).contains("get_weather", "64").doesNotContain("xxxx");
		});
	}

	@Test
	void aToolFailureBecomesShortRedactedTextWithoutAStackTrace() {
		this.contextRunner.run((context) -> {
			ToolCallback weather = callback(context.getBean(AgentToolCallbackProvider.class), "get_weather");
			String text = weather.call("{\"city\":\"Atlantis\"}");
			assertThat(text).isEqualTo(
					"Tool 'get_weather' failed: IllegalStateException: weather service rejected token=[REDACTED]");
		});
	}

	@Test
	void aDenialTellsTheModelNotToRetryAndObserversSeeIt() {
		this.contextRunner.withUserConfiguration(DenyingConfiguration.class).run((context) -> {
			ToolCallback alarm = callback(context.getBean(AgentToolCallbackProvider.class), "set_alarm");
			String text = alarm.call("{\"minutes\":5}");
			assertThat(text).contains("denied by policy", "Do not retry");
			ToolCallRecord record = context.getBean(RecordingToolCallObserver.class).records().get(0);
			assertThat(record.outcome()).isEqualTo(CallOutcome.DENIED);
			assertThat(record.decidedBy()).isEqualTo("policy");
			assertThat(context.getBean(WeatherTools.class).alarms()).isZero();
		});
	}

	@Test
	void middlewareAndInterceptorBeansJoinTheChainByOrderWithUnorderedOnesInnermost() {
		this.contextRunner.withUserConfiguration(OrderedChainConfiguration.class).run((context) -> {
			RegisteredTool weather = context.getBean(AgentToolRegistry.class).get("get_weather");
			assertThat(weather.pipeline().layers()).containsExactly("outer", "middle", "built-in", "inner", "unordered",
					"get_weather");
		});
	}

	@Test
	void middlewareThatDoesNotApplyIsNotInTheToolsPipeline() {
		this.contextRunner.withUserConfiguration(DenyingConfiguration.class).run((context) -> {
			AgentToolRegistry registry = context.getBean(AgentToolRegistry.class);
			assertThat(registry.get("get_weather").pipeline().layers()).containsExactly("get_weather");
			assertThat(registry.get("set_alarm").pipeline().layers()).containsExactly("policy", "set_alarm");
		});
	}

	@Test
	void disabledLeavesToolBeansUntouched() {
		this.contextRunner.withPropertyValues("agent.middleware.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(AgentToolRegistry.class)
				.doesNotHaveBean(AgentToolBeanPostProcessor.class)
				.doesNotHaveBean(AgentToolCallbackProvider.class);
			assertThat(AopUtils.isAopProxy(context.getBean(WeatherTools.class))).isFalse();
		});
	}

	@Test
	void duplicateToolNamesFailStartupNamingBothBeans() {
		this.contextRunner.withUserConfiguration(DuplicateConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("Duplicate tool name 'get_weather'")
				.hasMessageContaining("'weatherTools'")
				.hasMessageContaining("'otherWeatherTools'");
		});
	}

	@Test
	void aToolNameInConfigurationThatMatchesNoToolFailsStartup() {
		this.contextRunner
			.withBean(ToolNameReferences.class,
					() -> ToolNameReferences.of("agent.middleware.cache.tools", List.of("get-wether")))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
					.hasMessageContaining("agent.middleware.cache.tools.get-wether")
					.hasMessageContaining("get_weather");
			});
	}

	@Test
	void anUnknownToolNameOnlyWarnsWhenFailOnUnknownToolIsOff() {
		this.contextRunner.withPropertyValues("agent.middleware.fail-on-unknown-tool=false")
			.withBean(ToolNameReferences.class,
					() -> ToolNameReferences.of("agent.middleware.cache.tools", List.of("get-wether")))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void toolNamesInConfigurationMatchIgnoringCaseAndSeparators() {
		this.contextRunner
			.withBean(ToolNameReferences.class,
					() -> ToolNameReferences.of("agent.middleware.cache.tools", List.of("GET-WEATHER", "setalarm")))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void anExistingAopProxyGetsTheAdvisorInsteadOfASecondProxy() {
		this.contextRunner
			.withUserConfiguration(RecordingMiddlewareConfiguration.class, ExistingProxyConfiguration.class)
			.run((context) -> {
				WeatherTools tools = context.getBean(WeatherTools.class);
				Advised advised = (Advised) tools;
				assertThat(AopUtils.isAopProxy(advised.getTargetSource().getTarget())).isFalse();
				assertThat(advised.getAdvisors()).hasSize(2);
				tools.getWeather("Rome");
				callback(context.getBean(AgentToolCallbackProvider.class), "get_weather").call("{\"city\":\"Rome\"}");
				assertThat(context.getBean(Recorder.class).calls).hasSize(2);
				assertThat(context.getBean(ExistingProxyConfiguration.class).aspectCalls).isEqualTo(2);
				assertThat(((WeatherTools) advised.getTargetSource().getTarget()).executions()).isEqualTo(2);
			});
	}

	@Test
	void aToolMethodThatCannotBeProxiedFailsStartupWithTheReason() {
		this.contextRunner.withUserConfiguration(FinalMethodConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("is final");
		});
	}

	@Test
	void theBeanPostProcessorIsDeclaredStaticWithOnlyObjectProviderParameters() throws Exception {
		Method method = AgentToolAutoConfiguration.class.getDeclaredMethod("agentToolBeanPostProcessor",
				ObjectProvider.class, ObjectProvider.class);
		assertThat(Modifier.isStatic(method.getModifiers())).isTrue();
		assertThat(method.getParameterTypes()).containsOnly(ObjectProvider.class);
	}

	@Test
	void aThrowingObserverNeverBreaksACall() {
		// The observer's failure is logged with its stack trace: capture it here rather
		// than print it in the build
		CapturedLog log = CapturedLog.of(dev.agentmiddleware.callrecord.ToolCallObservers.class, Level.WARN);
		log.start();
		try {
			this.contextRunner.withBean(ToolCallObserver.class, () -> new ToolCallObserver() {
				@Override
				public void onToolCall(ToolCallRecord record) {
					throw new IllegalStateException("observer bug");
				}

				@Override
				public boolean synchronous() {
					return true;
				}
			})
				.run((context) -> assertThat(context.getBean(WeatherTools.class).getWeather("Oslo"))
					.isEqualTo("Sunny in Oslo"));
		}
		finally {
			log.stop();
		}
		assertThat(log.events()).singleElement()
			.satisfies((event) -> assertThat(event.getFormattedMessage())
				.contains("failed on a call of tool 'get_weather'"));
	}

	private static ToolCallback callback(AgentToolCallbackProvider provider, String name) {
		for (ToolCallback callback : provider.getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	public static class WeatherTools {

		private final AtomicInteger executions = new AtomicInteger();

		private final AtomicInteger alarms = new AtomicInteger();

		public int executions() {
			return this.executions.get();
		}

		public int alarms() {
			return this.alarms.get();
		}

		@AgentTool(description = "Current weather for a city", safety = SafetyLevel.SAFE, readOnly = true,
				idempotent = true, tags = "weather")
		public String getWeather(@AgentToolParam(description = "City name") String city) {
			this.executions.incrementAndGet();
			if (city.equals("Atlantis")) {
				throw new IllegalStateException("weather service rejected token=abc123\n\tat somewhere");
			}
			return "Sunny in " + city;
		}

		@AgentTool(description = "Sets an alarm", returnDirect = true)
		public void setAlarm(int minutes) {
			this.alarms.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WeatherConfiguration {

		@Bean
		WeatherTools weatherTools() {
			return new WeatherTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DenyingConfiguration {

		@Bean
		RecordingToolCallObserver synchronousObserver() {
			return new RecordingToolCallObserver();
		}

		@Bean
		ToolMiddleware policy() {
			return ToolMiddleware.named("policy",
					(tool, next) -> (tool.safety() != SafetyLevel.DANGEROUS) ? next : (invocation) -> {
						throw new ToolDeniedException(invocation.toolName(), "policy", "dangerous tools are off");
					});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OrderedChainConfiguration {

		@Bean
		ToolMiddleware unordered() {
			return passThrough("unordered");
		}

		@Bean
		@Order(300)
		ToolMiddleware inner() {
			return passThrough("inner");
		}

		@Bean
		@Order(100)
		ToolMiddleware outer() {
			return passThrough("outer");
		}

		@Bean
		MiddleInterceptor middle() {
			return new MiddleInterceptor();
		}

		@Bean
		ToolMiddleware builtIn() {
			return new OrderedMiddleware() {

				@Override
				public int order() {
					return 250;
				}

				@Override
				public ToolHandler wrap(ToolDescriptor tool, ToolHandler next) {
					return next::handle;
				}

				@Override
				public String name() {
					return "built-in";
				}

			};
		}

		private static ToolMiddleware passThrough(String name) {
			return ToolMiddleware.named(name, (tool, next) -> next::handle);
		}

	}

	@Order(200)
	static class MiddleInterceptor implements ToolInterceptor {

		@Override
		public BeforeDecision beforeInvocation(ToolInvocation invocation) {
			return BeforeDecision.proceed();
		}

		@Override
		public String name() {
			return "middle";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DuplicateConfiguration {

		@Bean
		WeatherTools otherWeatherTools() {
			return new WeatherTools();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ExistingProxyConfiguration {

		int aspectCalls;

		// Declared with its concrete type: Spring sorts post-processors by the type the
		// @Bean method declares.
		@Bean
		static ExistingProxyPostProcessor existingProxyPostProcessor(
				ObjectProvider<ExistingProxyConfiguration> configuration) {
			return new ExistingProxyPostProcessor(configuration);
		}

	}

	/**
	 * Like Spring's own auto-proxy creator: ordered, and so applied before the agent tool
	 * post-processor.
	 */
	static final class ExistingProxyPostProcessor implements BeanPostProcessor, Ordered {

		private final ObjectProvider<ExistingProxyConfiguration> configuration;

		ExistingProxyPostProcessor(ObjectProvider<ExistingProxyConfiguration> configuration) {
			this.configuration = configuration;
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (!(bean instanceof WeatherTools)) {
				return bean;
			}
			ProxyFactory factory = new ProxyFactory(bean);
			factory.setProxyTargetClass(true);
			factory.addAdvice((MethodInterceptor) (invocation) -> {
				this.configuration.getObject().aspectCalls++;
				return invocation.proceed();
			});
			return factory.getProxy();
		}

	}

	public static class BookingTools {

		@AgentTool(description = "Books a table", safety = SafetyLevel.MODERATE)
		public String bookTable(@Max(12) int guests, @NotBlank String name) {
			return "Table for " + guests + " booked for " + name;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ValidatedConfiguration {

		@Bean
		BookingTools bookingTools() {
			return new BookingTools();
		}

	}

	public static class FinalMethodTools {

		@AgentTool(description = "Cannot be proxied")
		public final String locked() {
			return "locked";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FinalMethodConfiguration {

		@Bean
		FinalMethodTools finalMethodTools() {
			return new FinalMethodTools();
		}

	}

}
