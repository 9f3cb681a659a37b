package dev.agentmiddleware.sample.resilience;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import dev.agentmiddleware.spring.AgentTool;
import dev.agentmiddleware.spring.AgentToolParam;
import dev.agentmiddleware.tool.ToolDescriptor.SafetyLevel;
import dev.agentmiddleware.tool.TransientToolException;

import org.springframework.stereotype.Component;

/**
 * A flaky exchange-rate service: every other request fails with a transient error. The
 * tool is idempotent, so the retry middleware tries again and the caller sees a rate,
 * never the failure.
 */
@Component
public class ExchangeRateTools {

	private final AtomicLong requests = new AtomicLong();

	@AgentTool(title = "Exchange rate",
			description = "Exchange rate between two currencies, from a service that often fails for a moment",
			safety = SafetyLevel.SAFE, idempotent = true)
	public String getExchangeRate(@AgentToolParam(description = "ISO code of the currency to convert from") String from,
			@AgentToolParam(description = "ISO code of the currency to convert to") String to) {
		if (this.requests.incrementAndGet() % 2 == 1) {
			throw new TransientToolException("exchange-rate service busy, try again");
		}
		String pair = from.toUpperCase(Locale.ROOT) + "/" + to.toUpperCase(Locale.ROOT);
		BigDecimal rate = BigDecimal.valueOf(50 + Math.floorMod(pair.hashCode(), 150))
			.divide(BigDecimal.valueOf(100), 2, RoundingMode.HALF_UP);
		return pair + " " + rate;
	}

	/**
	 * How many requests reached the service, failed ones included.
	 * @return the request count
	 */
	public long requests() {
		return this.requests.get();
	}

}
