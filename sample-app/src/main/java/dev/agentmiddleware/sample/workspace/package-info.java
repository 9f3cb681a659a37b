/**
 * File tools confined to a sandboxed workspace directory.
 */
@NullMarked
package dev.agentmiddleware.sample.workspace;

import org.jspecify.annotations.NullMarked;
