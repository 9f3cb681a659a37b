package dev.agentmiddleware.autoconfigure.approval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.agentmiddleware.approval.ApprovalProvider;
import dev.agentmiddleware.approval.ApprovalProvider.CompositeApprovalProvider;
import dev.agentmiddleware.autoconfigure.internal.ToolNames.NameSuggestions;
import dev.agentmiddleware.autoconfigure.tool.InvalidToolConfigurationException;

/**
 * The approval providers in the order of {@code agent.middleware.approval.providers}: the
 * listed ones first, in the listed order, then providers of the application that are not
 * built in. A built-in provider that is not listed is not used; a listed name that no
 * provider has fails startup with the names there are.
 */
final class ApprovalProviderOrder {

	static final Set<String> BUILT_IN = Set.of(ApprovalProviders.MCP_ELICITATION, ApprovalProviders.LINK,
			ApprovalProviders.CALLBACK, ApprovalProviders.QUEUE);

	/**
	 * The built-in providers whose requests wait for an approver to log in to the console
	 * or REST API.
	 */
	static final Set<String> WAITING_FOR_A_PERSON = Set.of(ApprovalProviders.LINK, ApprovalProviders.QUEUE);

	private ApprovalProviderOrder() {
	}

	static List<ApprovalProvider> ordered(List<ApprovalProvider> available, List<String> names) {
		Map<String, ApprovalProvider> byName = new LinkedHashMap<>();
		for (ApprovalProvider provider : available) {
			if (!(provider instanceof CompositeApprovalProvider)) {
				byName.putIfAbsent(provider.name(), provider);
			}
		}
		List<ApprovalProvider> ordered = new ArrayList<>();
		Set<String> known = new TreeSet<>(BUILT_IN);
		known.addAll(byName.keySet());
		for (int i = 0; i < names.size(); i++) {
			String name = names.get(i);
			ApprovalProvider provider = byName.remove(name);
			if (provider != null) {
				ordered.add(provider);
			}
			else if (!BUILT_IN.contains(name)) {
				throw new InvalidToolConfigurationException(ApprovalProperties.PREFIX + ".providers[" + i + "]", name,
						"no approval provider is named '" + name + "'",
						NameSuggestions.didYouMean(name, known) + "Providers: " + String.join(", ", known)
								+ " (the built-ins and the names of your ApprovalProvider beans).");
			}
		}
		byName.values().stream().filter((provider) -> !BUILT_IN.contains(provider.name())).forEach(ordered::add);
		return ordered;
	}

}
