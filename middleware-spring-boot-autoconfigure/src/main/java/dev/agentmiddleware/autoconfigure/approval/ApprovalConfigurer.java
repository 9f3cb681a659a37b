package dev.agentmiddleware.autoconfigure.approval;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentmiddleware.approval.ApprovalMiddleware;
import dev.agentmiddleware.approval.ApprovalRules;
import dev.agentmiddleware.autoconfigure.PerToolSettings;
import dev.agentmiddleware.autoconfigure.internal.ToolNames;
import dev.agentmiddleware.autoconfigure.tool.ToolNameReferences;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mapping of {@code agent.middleware.approval} to approval's policy function (the
 * {@link ApprovalRules}) and middleware settings, in one place, so that
 * {@link ApprovalAutoConfiguration} only wires beans. The per-tool rule is every
 * built-in's: a tool listed under {@code tools} needs approval unless its entry says
 * {@code enabled: false}, which exempts it; any other tool is decided by {@code policy}
 * (the built-in's own rule). Each entry's {@code enabled} is the tool's decision in the
 * rules, as it is for every built-in. The deprecated {@code exempt-tools} and
 * {@code sensitive-tools} still count, with a WARN: a tool in one of them gets the
 * decision its entry would give it (exempt beats every other setting).
 */
final class ApprovalConfigurer {

	private static final Logger logger = LoggerFactory.getLogger(ApprovalConfigurer.class);

	private final ApprovalProperties properties;

	ApprovalConfigurer(ApprovalProperties properties) {
		this.properties = properties;
	}

	/**
	 * The rules: {@code policy}, with the tools listed under {@code tools} (and in the
	 * deprecated lists) gated or exempt.
	 */
	ApprovalRules rules() {
		Map<String, Boolean> tools = new LinkedHashMap<>();
		this.properties.getTools().forEach((name, tool) -> tools.put(name, !Boolean.FALSE.equals(tool.getEnabled())));
		warnDeprecated("sensitive-tools", this.properties.getSensitiveTools(), "enabled: true");
		this.properties.getSensitiveTools().forEach((name) -> tools.putIfAbsent(name, true));
		warnDeprecated("exempt-tools", this.properties.getExemptTools(), "enabled: false");
		this.properties.getExemptTools().forEach((name) -> tools.put(name, false));
		return ApprovalRules.of(this.properties.getPolicy(), tools).withNameForm(ToolNames::canonical);
	}

	/**
	 * The names under {@code tools}, for the registry's check of unknown names at
	 * startup.
	 */
	ToolNameReferences toolNames() {
		return PerToolSettings.references(ApprovalProperties.PREFIX + ".tools", this.properties.getTools());
	}

	/** The names in the deprecated {@code exempt-tools}, each at its index. */
	ToolNameReferences exemptToolNames() {
		return ToolNameReferences.ofList(ApprovalProperties.PREFIX + ".exempt-tools", this.properties.getExemptTools());
	}

	/** The names in the deprecated {@code sensitive-tools}, each at its index. */
	ToolNameReferences sensitiveToolNames() {
		return ToolNameReferences.ofList(ApprovalProperties.PREFIX + ".sensitive-tools",
				this.properties.getSensitiveTools());
	}

	/**
	 * Applies the settings that are not beans: timeout, grant TTL, deny-repeat window and
	 * order.
	 */
	ApprovalMiddleware.Builder configure(ApprovalMiddleware.Builder builder) {
		return builder.timeout(this.properties.getTimeout())
			.grantTtl(this.properties.getGrantTtl())
			.denyRepeatWindow(this.properties.getDenyRepeatWindow())
			.order(this.properties.getOrder());
	}

	private static void warnDeprecated(String key, List<String> tools, String spelling) {
		if (!tools.isEmpty()) {
			logger.warn(
					"{}.{} is deprecated and will be removed: list each tool under {}.tools.<tool-name> with {} "
							+ "instead ({}).",
					ApprovalProperties.PREFIX, key, ApprovalProperties.PREFIX, spelling, String.join(", ", tools));
		}
	}

}
