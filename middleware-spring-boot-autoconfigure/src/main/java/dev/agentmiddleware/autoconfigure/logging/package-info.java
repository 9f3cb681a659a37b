/**
 * Auto-configuration of the logging of tool calls.
 */
@NullMarked
package dev.agentmiddleware.autoconfigure.logging;

import org.jspecify.annotations.NullMarked;
