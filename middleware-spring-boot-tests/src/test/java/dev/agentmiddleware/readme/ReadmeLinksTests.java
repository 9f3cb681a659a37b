package dev.agentmiddleware.readme;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of the READMEs and of the reference pages in {@code docs/} leads
 * somewhere: its file exists and, for a link to a heading, the heading does.
 */
class ReadmeLinksTests {

	@Test
	void everyRelativeLinkReachesItsFileAndHeading() {
		List<String> broken = new ArrayList<>();
		int checked = 0;
		for (Readme page : Readme.all()) {
			for (Readme.Link link : page.links()) {
				checked++;
				String file = link.url().contains("#") ? link.url().substring(0, link.url().indexOf('#')) : link.url();
				String anchor = link.url().contains("#") ? link.url().substring(link.url().indexOf('#') + 1) : null;
				Path target = file.isEmpty() ? page.path() : page.path().getParent().resolve(file).normalize();
				if (!Files.exists(target)) {
					broken.add(link + " (no such file)");
				}
				else if (anchor != null && target.toString().endsWith(".md")
						&& !Readme.of(target).anchors().contains(anchor)) {
					broken.add(link + " (no such heading)");
				}
			}
		}
		assertThat(checked).as("links checked").isGreaterThan(50);
		assertThat(broken).isEmpty();
	}

}
