/**
 * Keeps secrets out of logs, error messages and anything else a person or a model reads.
 */
@NullMarked
package dev.agentmiddleware.redaction;

import org.jspecify.annotations.NullMarked;
