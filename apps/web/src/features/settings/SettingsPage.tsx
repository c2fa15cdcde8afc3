import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../app/AuthContext';
import { PageContainer } from '../../components/PageContainer';
import { CompaniesTab } from './admin/CompaniesTab';
import { HelpsTab } from './admin/HelpsTab';
import { PlansTab } from './admin/PlansTab';
import { CompanyHoursTab } from './CompanyHoursTab';
import { OptionsTab } from './OptionsTab';
import { settingValue, useSettings } from './settingsApi';

type SettingsTab = 'options' | 'schedules' | 'companies' | 'plans' | 'helps';

/** Tabs visible to a user: Opções always, Horários with company business hours, the rest super only. */
export function visibleTabs(isSuper: boolean, scheduleType: string): SettingsTab[] {
  return [
    'options',
    ...(scheduleType === 'company' ? (['schedules'] as const) : []),
    ...(isSuper ? (['companies', 'plans', 'helps'] as const) : []),
  ];
}

const panels: Record<SettingsTab, ComponentType> = {
  options: OptionsTab,
  schedules: CompanyHoursTab,
  companies: CompaniesTab,
  plans: PlansTab,
  helps: HelpsTab,
};

/** /settings (part 2 §2, "Settings"). */
export default function SettingsPage() {
  const { t } = useTranslation();
  const me = useSessionUser();
  const settings = useSettings();
  const tabs = visibleTabs(me.super, settingValue(settings.data, 'scheduleType'));
  const [selected, setSelected] = useState<SettingsTab>('options');
  const tab = tabs.includes(selected) ? selected : 'options';
  const Panel = panels[tab];

  return (
    <PageContainer title={t('pages.settings')}>
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Tabs
          value={tab}
          onChange={(_, value: SettingsTab) => setSelected(value)}
          variant="scrollable"
          scrollButtons="auto"
          sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
        >
          {tabs.map((value) => (
            <Tab key={value} value={value} label={t(`settings.tabs.${value}`)} data-testid={`settings-tab-${value}`} />
          ))}
        </Tabs>
        <Box sx={{ p: { xs: 2, sm: 3 } }} role="tabpanel">
          <Panel />
        </Box>
      </Paper>
    </PageContainer>
  );
}
