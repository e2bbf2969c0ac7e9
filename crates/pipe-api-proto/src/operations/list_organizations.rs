//! `GET /v1/organizations`: the contract's `organizationGetList`.

use pipe_api_types::Organization;

operation! {
    /// Lists the organizations the key reaches (the one it belongs to).
    organizations.list_organizations: ListOrganizations()
        Management GET "v1"/"organizations" -> Vec<Organization>;
}
