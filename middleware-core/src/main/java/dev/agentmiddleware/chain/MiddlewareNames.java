package dev.agentmiddleware.chain;

import java.util.Locale;

/**
 * Derives default display names from class names.
 */
final class MiddlewareNames {

	private MiddlewareNames() {
	}

	static String of(Class<?> type, String suffix) {
		String simple = type.getSimpleName();
		if (type.isSynthetic() || type.isHidden() || type.isAnonymousClass() || simple.isEmpty()
				|| simple.contains("$$")) {
			return "anonymous-" + suffix.toLowerCase(Locale.ROOT);
		}
		if (simple.endsWith(suffix) && simple.length() > suffix.length()) {
			simple = simple.substring(0, simple.length() - suffix.length());
		}
		StringBuilder name = new StringBuilder(simple.length() + 4);
		for (int i = 0; i < simple.length(); i++) {
			char c = simple.charAt(i);
			if (Character.isUpperCase(c)) {
				if (i > 0) {
					name.append('-');
				}
				name.append(Character.toLowerCase(c));
			}
			else {
				name.append(c);
			}
		}
		return name.toString();
	}

}
