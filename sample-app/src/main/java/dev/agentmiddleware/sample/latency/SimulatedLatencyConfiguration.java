package dev.agentmiddleware.sample.latency;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The sample's latency: real waits.
 */
@Configuration(proxyBeanMethods = false)
class SimulatedLatencyConfiguration {

	@Bean
	SimulatedLatency simulatedLatency() {
		return SimulatedLatency.REAL;
	}

}
