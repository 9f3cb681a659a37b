/**
 * The annotations that turn Spring bean methods into governed agent tools.
 */
@NullMarked
package dev.agentmiddleware.spring;

import org.jspecify.annotations.NullMarked;
