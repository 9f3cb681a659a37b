/**
 * {@code POST /chat}: a {@code ChatClient} over the sample's tools, with agent-level
 * middleware on its tool loop, driven by a scripted model when no real model is
 * configured.
 */
@NullMarked
package dev.agentmiddleware.sample.chat;

import org.jspecify.annotations.NullMarked;
