/**
 * The todo middleware: tools with which a model plans and tracks its task, kept in the
 * thread metadata under {@code todos}.
 */
@NullMarked
package dev.agentmiddleware.todo;

import org.jspecify.annotations.NullMarked;
