package dev.agentmiddleware.autoconfigure.tool;

import java.util.List;

/**
 * The tool names of one property: the keys of a map, or the elements of a list, each of
 * which is then named at its index.
 *
 * @param property the property the names come from
 * @param toolNames the names, as written in configuration
 * @param indexed whether the names are the elements of a list
 */
record PropertyToolNames(String property, List<String> toolNames, boolean indexed) implements ToolNameReferences {

	PropertyToolNames {
		toolNames = List.copyOf(toolNames);
	}

	@Override
	public String propertyOf(String toolName) {
		return this.indexed ? this.property + "[" + this.toolNames.indexOf(toolName) + "]"
				: this.property + "." + toolName;
	}

}
