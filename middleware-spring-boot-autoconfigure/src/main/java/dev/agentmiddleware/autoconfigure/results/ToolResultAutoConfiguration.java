package dev.agentmiddleware.autoconfigure.results;

import java.util.List;
import java.util.stream.Collectors;

import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.PhoneNumberUtil.Leniency;
import dev.agentmiddleware.autoconfigure.AgentMiddlewareAutoConfiguration;
import dev.agentmiddleware.autoconfigure.actuate.AgentMiddlewareEndpointContributor.PolicyEndpointContributor;
import dev.agentmiddleware.autoconfigure.tool.AgentToolRegistry;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;
import dev.agentmiddleware.metrics.MiddlewareMetrics;
import dev.agentmiddleware.redaction.SecretRedactor;
import dev.agentmiddleware.results.EmailDetector;
import dev.agentmiddleware.results.IbanDetector;
import dev.agentmiddleware.results.PaymentCardDetector;
import dev.agentmiddleware.results.PersonalDataDetector;
import dev.agentmiddleware.results.PhoneNumberDetector;
import dev.agentmiddleware.results.ResultGuardMiddleware;
import dev.agentmiddleware.results.ToolResultGuard;
import org.iban4j.IbanUtil;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of result guards: a {@link ResultGuardMiddleware} that redacts
 * secrets in every tool's result (with the application's {@link SecretRedactor}, so
 * {@code agent.middleware.redaction.secret-keys} applies), masks personal data where
 * {@code personal-data.enabled} says so (with every {@link PersonalDataDetector} bean:
 * the built-ins for email addresses and payment cards, for phone numbers with
 * libphonenumber and for IBANs with iban4j when they are on the class path, and the
 * application's own), runs the application's {@link ToolResultGuard} beans (in
 * {@code @Order}) and cuts or refuses results longer than
 * {@code agent.middleware.results.defaults.max-chars} (or a tool's own), with the JSON
 * mapper results are written with.
 */
@AutoConfiguration(after = AgentMiddlewareAutoConfiguration.class)
@ConditionalOnBean(AgentToolRegistry.class)
@ConditionalOnBooleanProperty(name = ToolResultProperties.PREFIX + ".enabled", matchIfMissing = true)
@EnableConfigurationProperties(ToolResultProperties.class)
public final class ToolResultAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ResultGuardMiddleware resultGuardMiddleware(ToolResultProperties properties, ObjectProvider<ToolResultGuard> guards,
			ObjectProvider<PersonalDataDetector> detectors, ObjectProvider<JsonMapper> jsonMapper,
			ObjectProvider<MiddlewareMetrics> metrics, SecretRedactor secretRedactor) {
		List<PersonalDataDetector> personalDataDetectors = detectors.orderedStream().toList();
		properties
			.checkDetectors(personalDataDetectors.stream().map(PersonalDataDetector::kind).collect(Collectors.toSet()));
		return properties.applyTo(ResultGuardMiddleware.builder())
			.guards(guards.orderedStream().toList())
			.personalDataDetectors(personalDataDetectors)
			.redactor(secretRedactor)
			.jsonMapper(jsonMapper.getIfAvailable(JsonMapper::new))
			.metrics(metrics.getIfAvailable(() -> MiddlewareMetrics.NONE))
			.build();
	}

	@Configuration(proxyBeanMethods = false)
	static class PersonalDataDetectorConfiguration {

		@Bean
		@ConditionalOnMissingBean
		EmailDetector emailDetector() {
			return new EmailDetector();
		}

		@Bean
		@ConditionalOnMissingBean
		PaymentCardDetector paymentCardDetector() {
			return new PaymentCardDetector();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(PhoneNumberUtil.class)
	static class PhoneNumberDetectorConfiguration {

		@Bean
		@ConditionalOnMissingBean
		PhoneNumberDetector phoneNumberDetector(ToolResultProperties properties) {
			String region = properties.getPhoneRegion();
			try {
				return new PhoneNumberDetector(region, Leniency.valueOf(properties.getPhoneLeniency().name()));
			}
			catch (IllegalArgumentException ex) {
				String property = ToolResultProperties.PREFIX + ".phone-region";
				throw new InvalidToolConfigurationException(property, region, String.valueOf(ex.getMessage()),
						"Set '" + property + "' to a two-letter country code such as DE or US, or remove it to"
								+ " find only phone numbers written with a country code.");
			}
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(IbanUtil.class)
	static class IbanDetectorConfiguration {

		@Bean
		@ConditionalOnMissingBean
		IbanDetector ibanDetector() {
			return new IbanDetector();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Endpoint.class)
	static class ResultEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean(name = "resultGuardEndpointContributor")
		PolicyEndpointContributor resultGuardEndpointContributor(ResultGuardMiddleware resultGuardMiddleware) {
			return PolicyEndpointContributor.of(resultGuardMiddleware);
		}

	}

}
