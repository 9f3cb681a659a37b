package dev.agentmiddleware.sample.approval;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The sample's approver: the one user who may see and decide approvals in the console and
 * the REST API.
 *
 * @param username the approver's user name
 * @param password the approver's password
 */
@ConfigurationProperties("sample.approver")
public record ApproverProperties(String username, String password) {

	/**
	 * Checks that both are set.
	 */
	public ApproverProperties {
		if (username == null || username.isBlank() || password == null || password.isBlank()) {
			throw new IllegalArgumentException(
					"sample.approver.username and sample.approver.password must be set to use the approval console");
		}
	}

}
