-- GitLab's ProtectedBranch#developers_can_push: Developers may push to the branch too (not force
-- push or delete it). The first push sets it when default_branch_protection is 1.
alter table protected_branches add column developers_can_push boolean not null default false;
